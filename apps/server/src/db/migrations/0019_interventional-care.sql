CREATE TABLE "interventions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"kind" text NOT NULL,
	"item_id" uuid,
	"body_part_id" uuid,
	"direction_id" uuid,
	"location_id" uuid,
	"ada_location_id" uuid,
	"side" text,
	"levels" text[] DEFAULT '{}'::text[] NOT NULL,
	"medicines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"guidance" text,
	"performed_on" date NOT NULL,
	"provider_id" uuid,
	"provider_type" text,
	"completion" smallint DEFAULT 1 NOT NULL,
	"outcome" text,
	"follow_up_plan" text,
	"pump" jsonb,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interventions_instance_id_key" UNIQUE("instance_id","id"),
	CONSTRAINT "interventions_pump" CHECK (("interventions"."kind" = 'pump') = ("interventions"."pump" is not null)),
	CONSTRAINT "interventions_item" CHECK ("interventions"."kind" = 'pump' or "interventions"."item_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "pain_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"source" text NOT NULL,
	"score" smallint NOT NULL,
	"note" text,
	"body_location_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"link_id" uuid,
	"recorded_by" uuid,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pain_entries_score" CHECK ("pain_entries"."score" between 0 and 10)
);
--> statement-breakpoint
CREATE TABLE "pathway_enrolments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"pathway_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"anchor_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"started_by" text NOT NULL,
	"intervention_id" uuid,
	"enrolled_by" uuid,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pathway_enrolments_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "pathway_step_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"enrolment_id" uuid NOT NULL,
	"step_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sent_at" timestamp with time zone,
	"reminders_sent" smallint DEFAULT 0 NOT NULL,
	"last_reminder_at" timestamp with time zone,
	"link_id" uuid,
	"form_response_id" uuid,
	"completed_at" timestamp with time zone,
	"completed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pathway_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"pathway_id" uuid NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL,
	"day_offset" integer NOT NULL,
	"kind" text NOT NULL,
	"form_code" smallint,
	"custom_form_id" uuid,
	"message_en" text,
	"message_es" text,
	"reminder_days" smallint[] DEFAULT '{3,7}'::smallint[] NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pathway_steps_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "pathways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"trigger_item_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"is_example" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pathways_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "patient_medicines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"medicine_id" uuid NOT NULL,
	"units_per_dose" numeric(8, 3) NOT NULL,
	"doses_per_day" numeric(6, 2) NOT NULL,
	"stopped_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_study_groups" (
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"study_group_id" uuid NOT NULL,
	"assigned_by" uuid,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_study_groups_instance_id_patient_id_study_group_id_pk" PRIMARY KEY("instance_id","patient_id","study_group_id")
);
--> statement-breakpoint
CREATE TABLE "planned_procedures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"status" text DEFAULT 'planned' NOT NULL,
	"planned_for" date,
	"compliance" jsonb DEFAULT '{"conservativeCareWeeks":null,"physicalTherapyCompleted":false,"imagingCompleted":false,"psychEvaluationCompleted":false,"notes":null}'::jsonb NOT NULL,
	"intervention_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "procedure_note_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid,
	"body" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "procedure_note_templates_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "procedure_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"intervention_id" uuid NOT NULL,
	"template_id" uuid,
	"provider_id" uuid,
	"version" smallint DEFAULT 1 NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"signed_at" timestamp with time zone,
	"signed_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"actions_taken" smallint[] DEFAULT '{}'::smallint[] NOT NULL,
	"diagnosis_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"procedure_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"note" text,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_one_form";--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_item_fk" FOREIGN KEY ("instance_id","item_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_body_part_fk" FOREIGN KEY ("instance_id","body_part_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_direction_fk" FOREIGN KEY ("instance_id","direction_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_location_fk" FOREIGN KEY ("instance_id","location_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_ada_location_fk" FOREIGN KEY ("instance_id","ada_location_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pain_entries" ADD CONSTRAINT "pain_entries_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pain_entries" ADD CONSTRAINT "pain_entries_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pain_entries" ADD CONSTRAINT "pain_entries_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pain_entries" ADD CONSTRAINT "pain_entries_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pain_entries" ADD CONSTRAINT "pain_entries_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_enrolments" ADD CONSTRAINT "pathway_enrolments_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_enrolments" ADD CONSTRAINT "pathway_enrolments_enrolled_by_users_id_fk" FOREIGN KEY ("enrolled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_enrolments" ADD CONSTRAINT "pathway_enrolments_pathway_fk" FOREIGN KEY ("instance_id","pathway_id") REFERENCES "public"."pathways"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_enrolments" ADD CONSTRAINT "pathway_enrolments_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_enrolments" ADD CONSTRAINT "pathway_enrolments_intervention_fk" FOREIGN KEY ("instance_id","intervention_id") REFERENCES "public"."interventions"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_enrolment_fk" FOREIGN KEY ("instance_id","enrolment_id") REFERENCES "public"."pathway_enrolments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_step_fk" FOREIGN KEY ("instance_id","step_id") REFERENCES "public"."pathway_steps"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_step_runs" ADD CONSTRAINT "pathway_step_runs_response_fk" FOREIGN KEY ("instance_id","form_response_id") REFERENCES "public"."form_responses"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_steps" ADD CONSTRAINT "pathway_steps_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_steps" ADD CONSTRAINT "pathway_steps_pathway_fk" FOREIGN KEY ("instance_id","pathway_id") REFERENCES "public"."pathways"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathway_steps" ADD CONSTRAINT "pathway_steps_custom_form_fk" FOREIGN KEY ("instance_id","custom_form_id") REFERENCES "public"."custom_forms"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathways" ADD CONSTRAINT "pathways_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pathways" ADD CONSTRAINT "pathways_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_medicines" ADD CONSTRAINT "patient_medicines_medicine_fk" FOREIGN KEY ("instance_id","medicine_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_study_groups" ADD CONSTRAINT "patient_study_groups_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_study_groups" ADD CONSTRAINT "patient_study_groups_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_study_groups" ADD CONSTRAINT "patient_study_groups_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_study_groups" ADD CONSTRAINT "patient_study_groups_group_fk" FOREIGN KEY ("instance_id","study_group_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_procedures" ADD CONSTRAINT "planned_procedures_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_procedures" ADD CONSTRAINT "planned_procedures_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_procedures" ADD CONSTRAINT "planned_procedures_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_procedures" ADD CONSTRAINT "planned_procedures_item_fk" FOREIGN KEY ("instance_id","item_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planned_procedures" ADD CONSTRAINT "planned_procedures_intervention_fk" FOREIGN KEY ("instance_id","intervention_id") REFERENCES "public"."interventions"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_note_templates" ADD CONSTRAINT "procedure_note_templates_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_note_templates" ADD CONSTRAINT "procedure_note_templates_item_fk" FOREIGN KEY ("instance_id","item_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_intervention_fk" FOREIGN KEY ("instance_id","intervention_id") REFERENCES "public"."interventions"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedure_notes" ADD CONSTRAINT "procedure_notes_template_fk" FOREIGN KEY ("instance_id","template_id") REFERENCES "public"."procedure_note_templates"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_records" ADD CONSTRAINT "visit_records_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_records" ADD CONSTRAINT "visit_records_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_records" ADD CONSTRAINT "visit_records_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_records" ADD CONSTRAINT "visit_records_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interventions_patient_idx" ON "interventions" USING btree ("instance_id","patient_id","performed_on");--> statement-breakpoint
CREATE INDEX "interventions_instance_performed_idx" ON "interventions" USING btree ("instance_id","performed_on");--> statement-breakpoint
CREATE INDEX "pain_entries_patient_idx" ON "pain_entries" USING btree ("instance_id","patient_id","recorded_at");--> statement-breakpoint
CREATE INDEX "pathway_enrolments_patient_idx" ON "pathway_enrolments" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "pathway_enrolments_pathway_idx" ON "pathway_enrolments" USING btree ("instance_id","pathway_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "pathway_enrolments_active_key" ON "pathway_enrolments" USING btree ("instance_id","pathway_id","patient_id") WHERE "pathway_enrolments"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "pathway_step_runs_step_key" ON "pathway_step_runs" USING btree ("instance_id","enrolment_id","step_id");--> statement-breakpoint
CREATE INDEX "pathway_step_runs_due_idx" ON "pathway_step_runs" USING btree ("due_at") WHERE "pathway_step_runs"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "pathway_step_runs_link_idx" ON "pathway_step_runs" USING btree ("instance_id","link_id") WHERE "pathway_step_runs"."link_id" is not null;--> statement-breakpoint
CREATE INDEX "pathway_steps_pathway_idx" ON "pathway_steps" USING btree ("instance_id","pathway_id","sort_order");--> statement-breakpoint
CREATE INDEX "pathways_instance_idx" ON "pathways" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "patient_medicines_patient_idx" ON "patient_medicines" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "patient_study_groups_group_idx" ON "patient_study_groups" USING btree ("instance_id","study_group_id");--> statement-breakpoint
CREATE INDEX "planned_procedures_patient_idx" ON "planned_procedures" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "procedure_note_templates_instance_idx" ON "procedure_note_templates" USING btree ("instance_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "procedure_notes_version_key" ON "procedure_notes" USING btree ("instance_id","intervention_id","version");--> statement-breakpoint
CREATE INDEX "procedure_notes_patient_idx" ON "procedure_notes" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "procedure_notes_unsigned_idx" ON "procedure_notes" USING btree ("instance_id","provider_id") WHERE "procedure_notes"."status" = 'draft';--> statement-breakpoint
CREATE UNIQUE INDEX "visit_records_appointment_key" ON "visit_records" USING btree ("instance_id","appointment_id");--> statement-breakpoint
CREATE INDEX "visit_records_patient_idx" ON "visit_records" USING btree ("instance_id","patient_id");--> statement-breakpoint
CREATE INDEX "visit_records_recent_idx" ON "visit_records" USING btree ("instance_id","updated_at");--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_one_form" CHECK (("patient_links"."kind" = 'form' and ("patient_links"."form_code" is null) <> ("patient_links"."custom_form_id" is null)) or ("patient_links"."kind" = 'intake' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null and "patient_links"."appointment_id" is not null and "patient_links"."intake_plan" is not null) or ("patient_links"."kind" = 'consent' and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null and "patient_links"."consent_kinds" is not null) or ("patient_links"."kind" in ('closeAccount', 'painJournal') and "patient_links"."form_code" is null and "patient_links"."custom_form_id" is null));--> statement-breakpoint
-- Row-level security for the new clinic tables, as migration 0010 set it for the others (decision 0022).
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['visit_records', 'interventions', 'planned_procedures', 'procedure_note_templates',
    'procedure_notes', 'patient_medicines', 'pain_entries', 'patient_study_groups', 'pathways', 'pathway_steps',
    'pathway_enrolments', 'pathway_step_runs']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format(
      'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
      tenant_table);
  END LOOP;
END $$;
