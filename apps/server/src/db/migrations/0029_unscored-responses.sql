ALTER TABLE "form_responses" ADD COLUMN "not_scored" text;--> statement-breakpoint
-- A licensed form (ODI 2, NDI 3, PROMIS Global-10 7, SOAPP-R 13: wording 'licensed' in packages/instruments)
-- answered before the clinic imported its wording was answered on neutral labels ("Section 1", options 0-5),
-- so its numbers mean nothing (decision 0067): keep the raw answers, clear every derived score, say why.
UPDATE "form_responses" r
   SET "scores" = '{}'::jsonb, "headline_score" = NULL, "band" = NULL, "not_scored" = 'wordingNotLoaded'
 WHERE r."form_code" IN (2, 3, 7, 13)
   AND NOT EXISTS (
     SELECT 1 FROM "instrument_wordings" w
      WHERE w."instance_id" = r."instance_id" AND w."form_code" = r."form_code" AND w."imported_at" <= r."submitted_at"
   );
