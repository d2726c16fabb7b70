ALTER TABLE "patient_links" ADD COLUMN "email_code_hash" text;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "email_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "email_code_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "email_code_sends" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "email_code_attempts" smallint DEFAULT 0 NOT NULL;