CREATE TABLE "instance_files" (
	"instance_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instance_files_instance_id_file_key_pk" PRIMARY KEY("instance_id","file_key")
);
--> statement-breakpoint
CREATE TABLE "managed_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"list_type" text NOT NULL,
	"name" text NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "perioperative_template_details" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"day_offset" integer NOT NULL,
	"channel" text NOT NULL,
	"subject" text,
	"message_en" text NOT NULL,
	"message_es" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perioperative_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"name" text NOT NULL,
	"codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credentials" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "clinical_provider_type" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "instance_files" ADD CONSTRAINT "instance_files_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "managed_items" ADD CONSTRAINT "managed_items_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perioperative_template_details" ADD CONSTRAINT "perioperative_template_details_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perioperative_template_details" ADD CONSTRAINT "perioperative_template_details_template_id_perioperative_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."perioperative_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perioperative_templates" ADD CONSTRAINT "perioperative_templates_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "managed_items_list_idx" ON "managed_items" USING btree ("instance_id","list_type","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "managed_items_name_key" ON "managed_items" USING btree ("instance_id","list_type",lower("name")) WHERE "managed_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "perioperative_template_details_template_idx" ON "perioperative_template_details" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "perioperative_templates_instance_idx" ON "perioperative_templates" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "activity_logs_chain_idx" ON "activity_logs" USING btree ("instance_id","chain_seq");