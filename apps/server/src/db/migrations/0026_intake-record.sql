CREATE TABLE "patient_allergies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"name" text NOT NULL,
	"reaction" text,
	"link_id" uuid,
	"removed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "coverage" jsonb;--> statement-breakpoint
ALTER TABLE "patient_allergies" ADD CONSTRAINT "patient_allergies_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_allergies" ADD CONSTRAINT "patient_allergies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_allergies" ADD CONSTRAINT "patient_allergies_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_allergies" ADD CONSTRAINT "patient_allergies_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_allergies_patient_idx" ON "patient_allergies" USING btree ("instance_id","patient_id");--> statement-breakpoint
-- Row-level security for the new clinic table, as migration 0010 set it for the others (decision 0022).
ALTER TABLE "patient_allergies" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "patient_allergies" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY system_access ON "patient_allergies" TO pathwell_system USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY clinic_isolation ON "patient_allergies" TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()));
