-- Issue #16 §1: references between clinic tables carry the clinic, so the database refuses a row that
-- points into another clinic. The parents' (instance_id, id) keys come first: the new foreign keys need
-- them (drizzle-kit wrote them last). Adding the keys checks every existing row.
ALTER TABLE "managed_items" ADD CONSTRAINT "managed_items_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "perioperative_templates" ADD CONSTRAINT "perioperative_templates_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "custom_form_versions" ADD CONSTRAINT "custom_form_versions_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "custom_forms" ADD CONSTRAINT "custom_forms_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_instance_id_key" UNIQUE("instance_id","id");
--> statement-breakpoint
ALTER TABLE "perioperative_template_details" DROP CONSTRAINT "perioperative_template_details_template_id_perioperative_templates_id_fk";
--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_patient_id_patients_id_fk";
--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_appointment_type_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_room_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_notes" DROP CONSTRAINT "patient_notes_patient_id_patients_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_phone_numbers" DROP CONSTRAINT "patient_phone_numbers_patient_id_patients_id_fk";
--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_gender_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_marital_status_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_ethnicity_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_occupation_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_payor_status_id_managed_items_id_fk";
--> statement-breakpoint
ALTER TABLE "appointment_pro_sets" DROP CONSTRAINT "appointment_pro_sets_appointment_id_appointments_id_fk";
--> statement-breakpoint
ALTER TABLE "custom_form_versions" DROP CONSTRAINT "custom_form_versions_custom_form_id_custom_forms_id_fk";
--> statement-breakpoint
ALTER TABLE "form_drafts" DROP CONSTRAINT "form_drafts_link_id_patient_links_id_fk";
--> statement-breakpoint
ALTER TABLE "form_responses" DROP CONSTRAINT "form_responses_patient_id_patients_id_fk";
--> statement-breakpoint
ALTER TABLE "form_responses" DROP CONSTRAINT "form_responses_appointment_id_appointments_id_fk";
--> statement-breakpoint
ALTER TABLE "form_responses" DROP CONSTRAINT "form_responses_link_id_patient_links_id_fk";
--> statement-breakpoint
ALTER TABLE "form_responses" DROP CONSTRAINT "form_responses_custom_form_version_id_custom_form_versions_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_patient_id_patients_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_appointment_id_appointments_id_fk";
--> statement-breakpoint
ALTER TABLE "patient_links" DROP CONSTRAINT "patient_links_custom_form_id_custom_forms_id_fk";
--> statement-breakpoint
ALTER TABLE "perioperative_template_details" ADD CONSTRAINT "perioperative_template_details_template_fk" FOREIGN KEY ("instance_id","template_id") REFERENCES "public"."perioperative_templates"("instance_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_type_fk" FOREIGN KEY ("instance_id","appointment_type_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_room_fk" FOREIGN KEY ("instance_id","room_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patient_notes" ADD CONSTRAINT "patient_notes_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patient_phone_numbers" ADD CONSTRAINT "patient_phone_numbers_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_gender_fk" FOREIGN KEY ("instance_id","gender_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_marital_status_fk" FOREIGN KEY ("instance_id","marital_status_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_ethnicity_fk" FOREIGN KEY ("instance_id","ethnicity_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_occupation_fk" FOREIGN KEY ("instance_id","occupation_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_payor_status_fk" FOREIGN KEY ("instance_id","payor_status_id") REFERENCES "public"."managed_items"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "appointment_pro_sets" ADD CONSTRAINT "appointment_pro_sets_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "custom_form_versions" ADD CONSTRAINT "custom_form_versions_form_fk" FOREIGN KEY ("instance_id","custom_form_id") REFERENCES "public"."custom_forms"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "form_drafts" ADD CONSTRAINT "form_drafts_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_link_fk" FOREIGN KEY ("instance_id","link_id") REFERENCES "public"."patient_links"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_custom_form_version_fk" FOREIGN KEY ("instance_id","custom_form_version_id") REFERENCES "public"."custom_form_versions"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_patient_fk" FOREIGN KEY ("instance_id","patient_id") REFERENCES "public"."patients"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_appointment_fk" FOREIGN KEY ("instance_id","appointment_id") REFERENCES "public"."appointments"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patient_links" ADD CONSTRAINT "patient_links_custom_form_fk" FOREIGN KEY ("instance_id","custom_form_id") REFERENCES "public"."custom_forms"("instance_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_instance_external_id_key" ON "appointments" USING btree ("instance_id","external_id") WHERE "appointments"."external_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "patients_instance_external_id_key" ON "patients" USING btree ("instance_id","external_id") WHERE "patients"."external_id" is not null;
