ALTER TABLE "patients" ADD COLUMN "outreach_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "outreach_text" boolean DEFAULT true NOT NULL;