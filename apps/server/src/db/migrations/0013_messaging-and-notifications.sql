CREATE TABLE "notification_receipts" (
	"instance_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seen_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	CONSTRAINT "notification_receipts_pkey" PRIMARY KEY("notification_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_instance_id_key" UNIQUE("instance_id","id")
);
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"instance_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"opted_out" boolean NOT NULL,
	"keyword" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_opt_outs_pkey" PRIMARY KEY("instance_id","phone")
);
--> statement-breakpoint
CREATE TABLE "user_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "outbox_messages_instance_idx";--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "patient_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "perioperative_template_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "send_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_receipts" ADD CONSTRAINT "notification_receipts_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_receipts" ADD CONSTRAINT "notification_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_receipts" ADD CONSTRAINT "notification_receipts_notification_fk" FOREIGN KEY ("instance_id","notification_id") REFERENCES "public"."notifications"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_outs" ADD CONSTRAINT "sms_opt_outs_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_receipts_user_idx" ON "notification_receipts" USING btree ("instance_id","user_id");--> statement-breakpoint
CREATE INDEX "notifications_instance_created_idx" ON "notifications" USING btree ("instance_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_appointment_kind_key" ON "notifications" USING btree ("instance_id","appointment_id","kind") WHERE "notifications"."appointment_id" is not null;--> statement-breakpoint
CREATE INDEX "user_messages_inbox_idx" ON "user_messages" USING btree ("instance_id","to_user_id","created_at");--> statement-breakpoint
CREATE INDEX "user_messages_sent_idx" ON "user_messages" USING btree ("instance_id","from_user_id","created_at");--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_perioperative_template_fk" FOREIGN KEY ("instance_id","perioperative_template_id") REFERENCES "public"."perioperative_templates"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_messages_instance_created_idx" ON "outbox_messages" USING btree ("instance_id","created_at","id");--> statement-breakpoint
CREATE INDEX "outbox_messages_patient_idx" ON "outbox_messages" USING btree ("instance_id","patient_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_batch_idx" ON "outbox_messages" USING btree ("batch_id") WHERE "outbox_messages"."batch_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_provider_id_key" ON "outbox_messages" USING btree ("channel","provider_message_id") WHERE "outbox_messages"."provider_message_id" is not null;--> statement-breakpoint
-- Row-level security for the new clinic tables, as migration 0010 set it for the others (decision 0022).
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['notifications', 'notification_receipts', 'sms_opt_outs', 'user_messages']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    EXECUTE format(
      'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
      tenant_table);
  END LOOP;
END $$;
--> statement-breakpoint
-- The job queue's own role (decision 0029): the pg-boss worker connection runs as it; it sees the queue's
-- tables and no clinic data.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pathwell_jobs') THEN
    CREATE ROLE pathwell_jobs NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pathwell_jobs TO %I', current_user);
  END IF;
END $$;
