ALTER TABLE "visit_records" ADD CONSTRAINT "visit_records_instance_id_key" UNIQUE("instance_id","id");--> statement-breakpoint
CREATE TABLE "audience_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"rule" jsonb NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audience_templates_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"language" text NOT NULL,
	"phone" text,
	"email" text,
	"provider_name" text,
	"matched_codes" text[] NOT NULL,
	"sms_status" text DEFAULT 'none' NOT NULL,
	"email_status" text DEFAULT 'none' NOT NULL,
	"sms_skip_reason" text,
	"email_skip_reason" text,
	"sms_message_id" uuid,
	"email_message_id" uuid,
	"position" integer NOT NULL,
	"queued_at" timestamp with time zone,
	"link_code" text,
	"clicked_at" timestamp with time zone,
	"click_count" integer DEFAULT 0 NOT NULL,
	"replied_at" timestamp with time zone,
	"opted_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_recipients_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"template_id" uuid,
	"rule" jsonb,
	"channels" text[] NOT NULL,
	"message_en" text NOT NULL,
	"message_es" text NOT NULL,
	"subject_en" text,
	"subject_es" text,
	"instruction_en" text,
	"instruction_es" text,
	"link_url" text,
	"scheduled_at" timestamp with time zone,
	"throttle_per_minute" integer DEFAULT 60 NOT NULL,
	"attribution_days" integer DEFAULT 30 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"text_sending" boolean DEFAULT true NOT NULL,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"approved_by" uuid,
	"approved_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"summary_sent_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "code_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"codes" text[] NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coded_visit_codes" (
	"instance_id" uuid NOT NULL,
	"coded_visit_id" uuid NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"visit_date" date NOT NULL,
	"provider_id" uuid,
	CONSTRAINT "coded_visit_codes_pkey" PRIMARY KEY("coded_visit_id","code")
);
--> statement-breakpoint
CREATE TABLE "coded_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"visit_date" date NOT NULL,
	"provider_id" uuid,
	"provider_name" text,
	"source" text NOT NULL,
	"visit_record_id" uuid,
	"import_id" uuid,
	"external_visit_id" text,
	"dedupe_key" text NOT NULL,
	"codes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coded_visits_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "encounter_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"mapping" jsonb NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"imported_rows" integer DEFAULT 0 NOT NULL,
	"duplicate_rows" integer DEFAULT 0 NOT NULL,
	"error_rows" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content" "bytea",
	"failure" text,
	"created_by" uuid,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "encounter_imports_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "hotlist_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"hotlist_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"callback_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hotlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"hotlist_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"matched_codes" text[] NOT NULL,
	"claimed_by" uuid,
	"claimed_until" timestamp with time zone,
	"outcome" text,
	"outcome_at" timestamp with time zone,
	"outcome_by" uuid,
	"callback_at" timestamp with time zone,
	"note" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hotlist_entries_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "hotlists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"template_id" uuid,
	"rule" jsonb NOT NULL,
	"reason" text,
	"status" text DEFAULT 'active' NOT NULL,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"finished_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hotlists_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "inbound_texts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"from_phone" text NOT NULL,
	"body" text NOT NULL,
	"keyword" text,
	"provider_message_id" text,
	"patient_id" uuid,
	"campaign_id" uuid,
	"campaign_recipient_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audience_templates" ADD CONSTRAINT "audience_templates_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audience_templates" ADD CONSTRAINT "audience_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_fk" FOREIGN KEY ("instance_id","campaign_id") REFERENCES "public"."campaigns"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_sms_message_fk" FOREIGN KEY ("instance_id","sms_message_id") REFERENCES "public"."outbox_messages"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_email_message_fk" FOREIGN KEY ("instance_id","email_message_id") REFERENCES "public"."outbox_messages"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_template_fk" FOREIGN KEY ("instance_id","template_id") REFERENCES "public"."audience_templates"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_groups" ADD CONSTRAINT "code_groups_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_groups" ADD CONSTRAINT "code_groups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visit_codes" ADD CONSTRAINT "coded_visit_codes_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visit_codes" ADD CONSTRAINT "coded_visit_codes_visit_fk" FOREIGN KEY ("instance_id","coded_visit_id") REFERENCES "public"."coded_visits"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visits" ADD CONSTRAINT "coded_visits_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visits" ADD CONSTRAINT "coded_visits_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visits" ADD CONSTRAINT "coded_visits_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visits" ADD CONSTRAINT "coded_visits_visit_record_fk" FOREIGN KEY ("instance_id","visit_record_id") REFERENCES "public"."visit_records"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coded_visits" ADD CONSTRAINT "coded_visits_import_fk" FOREIGN KEY ("instance_id","import_id") REFERENCES "public"."encounter_imports"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encounter_imports" ADD CONSTRAINT "encounter_imports_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encounter_imports" ADD CONSTRAINT "encounter_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_calls" ADD CONSTRAINT "hotlist_calls_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_calls" ADD CONSTRAINT "hotlist_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_calls" ADD CONSTRAINT "hotlist_calls_entry_fk" FOREIGN KEY ("instance_id","entry_id") REFERENCES "public"."hotlist_entries"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_entries" ADD CONSTRAINT "hotlist_entries_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_entries" ADD CONSTRAINT "hotlist_entries_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_entries" ADD CONSTRAINT "hotlist_entries_outcome_by_users_id_fk" FOREIGN KEY ("outcome_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_entries" ADD CONSTRAINT "hotlist_entries_hotlist_fk" FOREIGN KEY ("instance_id","hotlist_id") REFERENCES "public"."hotlists"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlist_entries" ADD CONSTRAINT "hotlist_entries_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlists" ADD CONSTRAINT "hotlists_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlists" ADD CONSTRAINT "hotlists_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotlists" ADD CONSTRAINT "hotlists_template_fk" FOREIGN KEY ("instance_id","template_id") REFERENCES "public"."audience_templates"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_campaign_fk" FOREIGN KEY ("instance_id","campaign_id") REFERENCES "public"."campaigns"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_recipient_fk" FOREIGN KEY ("instance_id","campaign_recipient_id") REFERENCES "public"."campaign_recipients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audience_templates_instance_idx" ON "audience_templates" USING btree ("instance_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_patient_key" ON "campaign_recipients" USING btree ("instance_id","campaign_id","patient_id");--> statement-breakpoint
CREATE INDEX "campaign_recipients_order_idx" ON "campaign_recipients" USING btree ("instance_id","campaign_id","position");--> statement-breakpoint
CREATE INDEX "campaign_recipients_phone_idx" ON "campaign_recipients" USING btree ("instance_id","phone","queued_at");--> statement-breakpoint
CREATE INDEX "campaign_recipients_patient_idx" ON "campaign_recipients" USING btree ("instance_id","patient_id","queued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_link_key" ON "campaign_recipients" USING btree ("link_code") WHERE "campaign_recipients"."link_code" is not null;--> statement-breakpoint
CREATE INDEX "campaigns_instance_idx" ON "campaigns" USING btree ("instance_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "code_groups_name_key" ON "code_groups" USING btree ("instance_id",lower("name")) WHERE "code_groups"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "coded_visit_codes_lookup_idx" ON "coded_visit_codes" USING btree ("instance_id","code","visit_date","patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coded_visits_dedupe_key" ON "coded_visits" USING btree ("instance_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "coded_visits_patient_idx" ON "coded_visits" USING btree ("instance_id","patient_id","visit_date");--> statement-breakpoint
CREATE INDEX "coded_visits_import_idx" ON "coded_visits" USING btree ("instance_id","import_id") WHERE "coded_visits"."import_id" is not null;--> statement-breakpoint
CREATE INDEX "encounter_imports_instance_idx" ON "encounter_imports" USING btree ("instance_id","created_at");--> statement-breakpoint
CREATE INDEX "hotlist_calls_list_idx" ON "hotlist_calls" USING btree ("instance_id","hotlist_id","user_id");--> statement-breakpoint
CREATE INDEX "hotlist_calls_patient_idx" ON "hotlist_calls" USING btree ("instance_id","patient_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hotlist_entries_patient_key" ON "hotlist_entries" USING btree ("instance_id","hotlist_id","patient_id");--> statement-breakpoint
CREATE INDEX "hotlist_entries_queue_idx" ON "hotlist_entries" USING btree ("instance_id","hotlist_id","position");--> statement-breakpoint
CREATE INDEX "hotlist_entries_patient_idx" ON "hotlist_entries" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "hotlists_instance_idx" ON "hotlists" USING btree ("instance_id","status","created_at");--> statement-breakpoint
CREATE INDEX "inbound_texts_instance_idx" ON "inbound_texts" USING btree ("instance_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_texts_campaign_idx" ON "inbound_texts" USING btree ("instance_id","campaign_id","received_at") WHERE "inbound_texts"."campaign_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_texts_provider_id_key" ON "inbound_texts" USING btree ("provider_message_id") WHERE "inbound_texts"."provider_message_id" is not null;--> statement-breakpoint
-- Row-level security for the new clinic tables, as migration 0010 set it for the others (decision 0022).
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['code_groups', 'encounter_imports', 'coded_visits', 'coded_visit_codes',
    'audience_templates', 'campaigns', 'campaign_recipients', 'inbound_texts', 'hotlists', 'hotlist_entries',
    'hotlist_calls']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format(
      'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
      tenant_table);
  END LOOP;
END $$;
