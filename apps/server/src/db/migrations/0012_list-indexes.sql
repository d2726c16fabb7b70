DROP INDEX "patients_instance_created_idx";--> statement-breakpoint
DROP INDEX "patients_instance_email_idx";--> statement-breakpoint
CREATE INDEX "appointments_instance_live_starts_idx" ON "appointments" USING btree ("instance_id","starts_at","id") WHERE "appointments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_instance_first_name_idx" ON "patients" USING btree ("instance_id",lower("first_name"),"id");--> statement-breakpoint
CREATE INDEX "patients_instance_birth_idx" ON "patients" USING btree ("instance_id","date_of_birth","id");--> statement-breakpoint
CREATE INDEX "patients_instance_created_idx" ON "patients" USING btree ("instance_id","created_at","id");--> statement-breakpoint
CREATE INDEX "patients_instance_email_idx" ON "patients" USING btree ("instance_id",lower("email"),"id");--> statement-breakpoint
-- A deleted patient's appointments are deleted with them from now on (patients.service); earlier ones too.
UPDATE "appointments" AS a SET "deleted_at" = p."deleted_at" FROM "patients" AS p
WHERE p."id" = a."patient_id" AND p."deleted_at" IS NOT NULL AND a."deleted_at" IS NULL;
