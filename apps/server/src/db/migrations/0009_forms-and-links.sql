CREATE TABLE "appointment_pro_sets" (
	"appointment_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"form_codes" smallint[] NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_pro_sets_appointment_id_pk" PRIMARY KEY("appointment_id")
);
--> statement-breakpoint
CREATE TABLE "custom_form_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"custom_form_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"title" text NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "form_drafts" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"instance_id" uuid NOT NULL,
	"answers" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"language" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"link_id" uuid,
	"form_code" smallint,
	"custom_form_version_id" uuid,
	"version" text NOT NULL,
	"language" text NOT NULL,
	"answers" jsonb NOT NULL,
	"scores" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"headline_score" numeric(9, 4),
	"band" smallint,
	"idempotency_key" uuid NOT NULL,
	"entered_by" uuid,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_responses_one_form" CHECK (("form_responses"."form_code" is null) <> ("form_responses"."custom_form_version_id" is null))
);
--> statement-breakpoint
CREATE TABLE "instrument_wordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"form_code" smallint NOT NULL,
	"definition" jsonb NOT NULL,
	"imported_by" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"form_code" smallint,
	"custom_form_id" uuid,
	"token_hash" text NOT NULL,
	"language" text,
	"expires_at" timestamp with time zone NOT NULL,
	"verify_failures" smallint DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"access_token_hash" text,
	"access_expires_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_links_one_form" CHECK (("patient_links"."form_code" is null) <> ("patient_links"."custom_form_id" is null))
);
--> statement-breakpoint
ALTER TABLE "appointment_pro_sets" ADD CONSTRAINT "appointment_pro_sets_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_pro_sets" ADD CONSTRAINT "appointment_pro_sets_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_pro_sets" ADD CONSTRAINT "appointment_pro_sets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_form_versions" ADD CONSTRAINT "custom_form_versions_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_form_versions" ADD CONSTRAINT "custom_form_versions_custom_form_id_custom_forms_id_fk" FOREIGN KEY ("custom_form_id") REFERENCES "public"."custom_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_form_versions" ADD CONSTRAINT "custom_form_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD CONSTRAINT "custom_forms_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD CONSTRAINT "custom_forms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_link_id_patient_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."patient_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_link_id_patient_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."patient_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_custom_form_version_id_custom_form_versions_id_fk" FOREIGN KEY ("custom_form_version_id") REFERENCES "public"."custom_form_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_wordings" ADD CONSTRAINT "instrument_wordings_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instrument_wordings" ADD CONSTRAINT "instrument_wordings_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_custom_form_id_custom_forms_id_fk" FOREIGN KEY ("custom_form_id") REFERENCES "public"."custom_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_form_versions_form_version_key" ON "custom_form_versions" USING btree ("custom_form_id","version");--> statement-breakpoint
CREATE INDEX "custom_forms_instance_idx" ON "custom_forms" USING btree ("instance_id","title");--> statement-breakpoint
CREATE UNIQUE INDEX "form_responses_idempotency_key" ON "form_responses" USING btree ("instance_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "form_responses_patient_idx" ON "form_responses" USING btree ("instance_id","patient_id","form_code","submitted_at");--> statement-breakpoint
CREATE INDEX "form_responses_appointment_idx" ON "form_responses" USING btree ("appointment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "instrument_wordings_instance_form_key" ON "instrument_wordings" USING btree ("instance_id","form_code");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_links_token_hash_key" ON "patient_links" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_links_access_token_hash_key" ON "patient_links" USING btree ("access_token_hash");--> statement-breakpoint
CREATE INDEX "patient_links_patient_idx" ON "patient_links" USING btree ("instance_id","patient_id","created_at");