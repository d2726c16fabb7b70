CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"doctor_id" uuid,
	"appointment_type_id" uuid,
	"room_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" smallint DEFAULT 30 NOT NULL,
	"status" smallint DEFAULT 2 NOT NULL,
	"reason" text,
	"notes" text,
	"external_id" text,
	"pain_score" smallint,
	"body_location_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"checked_in_at" timestamp with time zone,
	"check_in_delayed_until" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"author_user_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_phone_numbers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"phone_type" smallint NOT NULL,
	"number" text NOT NULL,
	"digits" text NOT NULL,
	"contact_name" text,
	"relation" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"middle_name" text,
	"last_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email" text,
	"rpm_key" text,
	"street_address1" text,
	"street_address2" text,
	"city" text,
	"state" text,
	"zip" text,
	"weight" numeric(6, 1) DEFAULT 0 NOT NULL,
	"height_feet" smallint,
	"height_inches" smallint,
	"height" numeric(5, 1),
	"gender_id" uuid,
	"marital_status_id" uuid,
	"ethnicity_id" uuid,
	"occupation_id" uuid,
	"payor_status_id" uuid,
	"nicotine_status_id" integer,
	"current_law_suit" text,
	"history_substance_abuse" text,
	"agreement_signed_date" date,
	"doctor_id" uuid,
	"enable_email" boolean DEFAULT true NOT NULL,
	"enable_text" boolean DEFAULT true NOT NULL,
	"preferred_language" text DEFAULT 'en' NOT NULL,
	"extended" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"external_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"archived_at" timestamp with time zone,
	"archive_reason" text,
	"account_closed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_name" text GENERATED ALWAYS AS (pathwell_fold("patients"."first_name" || ' ' || coalesce("patients"."middle_name" || ' ', '') || "patients"."last_name")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_doctor_id_users_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_appointment_type_id_managed_items_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_room_id_managed_items_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_phone_numbers" ADD CONSTRAINT "patient_phone_numbers_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_phone_numbers" ADD CONSTRAINT "patient_phone_numbers_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_gender_id_managed_items_id_fk" FOREIGN KEY ("gender_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_marital_status_id_managed_items_id_fk" FOREIGN KEY ("marital_status_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_ethnicity_id_managed_items_id_fk" FOREIGN KEY ("ethnicity_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_occupation_id_managed_items_id_fk" FOREIGN KEY ("occupation_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_payor_status_id_managed_items_id_fk" FOREIGN KEY ("payor_status_id") REFERENCES "public"."managed_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_doctor_id_users_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_instance_starts_idx" ON "appointments" USING btree ("instance_id","starts_at");--> statement-breakpoint
CREATE INDEX "appointments_patient_idx" ON "appointments" USING btree ("patient_id","starts_at");--> statement-breakpoint
CREATE INDEX "appointments_instance_doctor_starts_idx" ON "appointments" USING btree ("instance_id","doctor_id","starts_at");--> statement-breakpoint
CREATE INDEX "patient_notes_patient_idx" ON "patient_notes" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "patient_phone_numbers_patient_idx" ON "patient_phone_numbers" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "patient_phone_numbers_digits_idx" ON "patient_phone_numbers" USING btree ("instance_id","digits");--> statement-breakpoint
CREATE INDEX "patients_instance_created_idx" ON "patients" USING btree ("instance_id","created_at");--> statement-breakpoint
CREATE INDEX "patients_instance_last_name_idx" ON "patients" USING btree ("instance_id",lower("last_name"),"date_of_birth");--> statement-breakpoint
CREATE INDEX "patients_instance_email_idx" ON "patients" USING btree ("instance_id",lower("email"));--> statement-breakpoint
CREATE INDEX "patients_instance_doctor_idx" ON "patients" USING btree ("instance_id","doctor_id");--> statement-breakpoint
CREATE INDEX "patients_search_name_trgm_idx" ON "patients" USING gin ("search_name" gin_trgm_ops);