CREATE TABLE "intake_entries" (
	"link_id" uuid NOT NULL,
	"instance_id" uuid NOT NULL,
	"step" smallint NOT NULL,
	"form_key" text DEFAULT '' NOT NULL,
	"data" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"language" text NOT NULL,
	"response_id" uuid,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_entries_link_id_step_form_key_pk" PRIMARY KEY("link_id","step","form_key")
);
--> statement-breakpoint
CREATE TABLE "patient_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"link_id" uuid,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"document_text" text NOT NULL,
	"document_version" text NOT NULL,
	"language" text NOT NULL,
	"signature_image" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_consents_link_kind_key" UNIQUE("link_id","kind")
);
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_one_form";--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "amount_due_cents" integer;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "kind" text DEFAULT 'form' NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_links" ADD COLUMN "intake_plan" jsonb;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_instance_id_key" UNIQUE("instance_id","id");--> statement-breakpoint
ALTER TABLE "intake_entries" ADD CONSTRAINT "intake_entries_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_entries" ADD CONSTRAINT "intake_entries_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_entries" ADD CONSTRAINT "intake_entries_response_fk" FOREIGN KEY ("instance_id","response_id") REFERENCES "public"."form_responses"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_consents" ADD CONSTRAINT "patient_consents_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_consents" ADD CONSTRAINT "patient_consents_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_consents" ADD CONSTRAINT "patient_consents_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_consents" ADD CONSTRAINT "patient_consents_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_consents_patient_idx" ON "patient_consents" USING btree ("instance_id","patient_id","kind","signed_at");--> statement-breakpoint
CREATE INDEX "patient_links_appointment_idx" ON "patient_links" USING btree ("instance_id","appointment_id","created_at") WHERE "patient_links"."appointment_id" is not null;--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_one_form" CHECK (("patient_links"."kind" = 'form' and ("patient_links"."form_code" is null) <> ("patient_links"."custom_form_id" is null)) or ("patient_links"."kind" = 'intake' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null and "patient_links"."appointment_id" is not null and "patient_links"."intake_plan" is not null));--> statement-breakpoint
-- Row-level security for the new clinic tables, as migration 0010 set it for the others (decision 0022).
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['intake_entries', 'patient_consents']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format(
      'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
      tenant_table);
  END LOOP;
END $$;
