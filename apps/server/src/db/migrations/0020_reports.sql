ALTER TABLE "patients" ADD COLUMN "referral_source" smallint;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "referring_provider_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "disease_states" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "psychiatric_history" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "surgical_history" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "success_story" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "success_story_shared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_referring_provider_fk" FOREIGN KEY ("instance_id","referring_provider_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_responses_report_idx" ON "form_responses" USING btree ("instance_id","form_code","patient_id","submitted_at") WHERE "form_responses"."form_code" is not null;--> statement-breakpoint
CREATE INDEX "patient_links_instance_created_idx" ON "patient_links" USING btree ("instance_id","created_at");