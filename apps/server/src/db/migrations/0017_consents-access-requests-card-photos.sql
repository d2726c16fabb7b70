CREATE TABLE "access_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"link_id" uuid NOT NULL,
	"name" text NOT NULL,
	"date_of_birth" text,
	"contact" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone,
	"handled_by" uuid,
	CONSTRAINT "access_requests_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "intake_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"side" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_files_link_side_key" UNIQUE("link_id","side")
);
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_one_form";--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "consent_kinds" jsonb;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_files" ADD CONSTRAINT "intake_files_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_files" ADD CONSTRAINT "intake_files_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_files" ADD CONSTRAINT "intake_files_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_requests_patient_idx" ON "access_requests" USING btree ("instance_id","patient_id","created_at");--> statement-breakpoint
CREATE INDEX "intake_files_patient_idx" ON "intake_files" USING btree ("instance_id","patient_id","created_at");--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_one_form" CHECK (("patient_links"."kind" = 'form' and ("patient_links"."form_code" is null) <> ("patient_links"."custom_form_id" is null)) or ("patient_links"."kind" = 'intake' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null and "patient_links"."appointment_id" is not null and "patient_links"."intake_plan" is not null) or ("patient_links"."kind" = 'consent' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null and "patient_links"."consent_kinds" is not null) or ("patient_links"."kind" = 'closeAccount' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null));--> statement-breakpoint
-- Row-level security for the new clinic tables, as migration 0010 set it for the others (decision 0022).
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['intake_files', 'access_requests']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format(
      'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
      tenant_table);
  END LOOP;
END $$;
