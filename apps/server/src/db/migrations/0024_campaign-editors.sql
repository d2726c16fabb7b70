ALTER TABLE "campaigns" ADD COLUMN "editor_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
-- A draft written before editors were tracked counts its author as its only editor (decision 0064).
UPDATE "campaigns" SET "editor_ids" = ARRAY["created_by"] WHERE "created_by" IS NOT NULL;
