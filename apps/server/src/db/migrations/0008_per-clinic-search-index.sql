DROP INDEX "patients_search_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "patients_instance_search_trgm_idx" ON "patients" USING gin ("instance_id","search_name" gin_trgm_ops);