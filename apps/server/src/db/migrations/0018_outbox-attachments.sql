CREATE TABLE "outbox_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The same-clinic key below points at (instance_id, id): the unique constraint must exist first.
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_instance_id_key" UNIQUE("instance_id","id");--> statement-breakpoint
ALTER TABLE "outbox_attachments" ADD CONSTRAINT "outbox_attachments_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_attachments" ADD CONSTRAINT "outbox_attachments_message_fk" FOREIGN KEY ("instance_id","message_id") REFERENCES "public"."outbox_messages"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_attachments_message_idx" ON "outbox_attachments" USING btree ("instance_id","message_id");--> statement-breakpoint
-- Row-level security for the new clinic table, as migration 0010 set it for outbox_messages (decision 0022):
-- enabled and forced, every row to the system role, a clinic's rows to the app role.
ALTER TABLE "outbox_attachments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "outbox_attachments" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY system_access ON "outbox_attachments" TO pathwell_system USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY clinic_isolation ON "outbox_attachments" TO pathwell_app
  USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()));
