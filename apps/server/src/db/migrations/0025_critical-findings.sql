CREATE TABLE "critical_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"response_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"appointment_id" uuid,
	"form_code" smallint NOT NULL,
	"rule_key" text NOT NULL,
	"item_id" text NOT NULL,
	"answer" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	CONSTRAINT "critical_findings_acknowledged" CHECK (("critical_findings"."acknowledged_at" is null) = ("critical_findings"."acknowledged_by" is null))
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "response_id" uuid;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_response_fk" FOREIGN KEY ("instance_id","response_id") REFERENCES "public"."form_responses"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "critical_findings_response_rule_key" ON "critical_findings" USING btree ("instance_id","response_id","rule_key");--> statement-breakpoint
CREATE INDEX "critical_findings_patient_idx" ON "critical_findings" USING btree ("instance_id","patient_id","created_at");--> statement-breakpoint
CREATE INDEX "critical_findings_appointment_idx" ON "critical_findings" USING btree ("instance_id","appointment_id") WHERE "critical_findings"."appointment_id" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_response_fk" FOREIGN KEY ("instance_id","response_id") REFERENCES "public"."form_responses"("instance_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Row-level security for the new clinic table, as migration 0010 set it for the others (decision 0022).
ALTER TABLE "critical_findings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "critical_findings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY system_access ON "critical_findings" TO pathwell_system USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY clinic_isolation ON "critical_findings" TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()));
