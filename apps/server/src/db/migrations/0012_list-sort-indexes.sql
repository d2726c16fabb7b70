DROP INDEX "patients_instance_created_idx";--> statement-breakpoint
DROP INDEX "patients_instance_email_idx";--> statement-breakpoint
CREATE INDEX "patients_instance_first_name_idx" ON "patients" USING btree ("instance_id",lower("first_name"),"id");--> statement-breakpoint
CREATE INDEX "patients_instance_birth_idx" ON "patients" USING btree ("instance_id","date_of_birth","id");--> statement-breakpoint
CREATE INDEX "patients_instance_created_idx" ON "patients" USING btree ("instance_id","created_at","id");--> statement-breakpoint
CREATE INDEX "patients_instance_email_idx" ON "patients" USING btree ("instance_id",lower("email"),"id");