-- Migrations 0024 and 0029 updated clinic rows as the migrating role. Clinic tables force row-level security
-- on their owner too, so where the migrating login is not a superuser (a managed PostgreSQL service) those
-- updates matched no row and changed nothing, silently. Redo them as pathwell_system, as 0030 does (migration
-- 0010 made the migrating role a member), then return to the migrating role for any later migration in the
-- same transaction. Both statements only touch rows the earlier migration would have changed and left as they
-- were, so on a database where 0024 and 0029 did their work this changes nothing.
SET LOCAL ROLE pathwell_system;
--> statement-breakpoint
-- 0024 (decision 0064): a draft written before editors were tracked counts its author as its only editor.
UPDATE "campaigns" SET "editor_ids" = ARRAY["created_by"]
 WHERE "created_by" IS NOT NULL AND "editor_ids" = '{}'::uuid[];
--> statement-breakpoint
-- 0029 (decision 0067): a licensed form answered before the clinic imported its wording carries no score.
UPDATE "form_responses" r
   SET "scores" = '{}'::jsonb, "headline_score" = NULL, "band" = NULL, "not_scored" = 'wordingNotLoaded'
 WHERE r."form_code" IN (2, 3, 7, 13)
   AND r."not_scored" IS NULL
   AND NOT EXISTS (
     SELECT 1 FROM "instrument_wordings" w
      WHERE w."instance_id" = r."instance_id" AND w."form_code" = r."form_code" AND w."imported_at" <= r."submitted_at"
   );
--> statement-breakpoint
RESET ROLE;
