-- Issue 30 (decisions 225-229): the library's paid masters and their kept files. Written by hand to match
-- schema-library.ts.
CREATE TABLE "masters" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"track_id" integer,
	"name" text NOT NULL,
	"spend_reference" text NOT NULL,
	"preset" text NOT NULL,
	"genre" text,
	"reference_name" text,
	"settings" jsonb NOT NULL,
	"figures" jsonb NOT NULL,
	"versions" jsonb NOT NULL,
	"formats" jsonb NOT NULL,
	"kept_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "masters" ADD CONSTRAINT "masters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "masters" ADD CONSTRAINT "masters_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "masters_spend_reference_idx" ON "masters" USING btree ("spend_reference");
--> statement-breakpoint
CREATE INDEX "masters_user_id_idx" ON "masters" USING btree ("user_id","id");
--> statement-breakpoint
CREATE TABLE "master_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"master_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	CONSTRAINT "master_files_size_nonneg" CHECK ("master_files"."size_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "master_files" ADD CONSTRAINT "master_files_master_id_masters_id_fk" FOREIGN KEY ("master_id") REFERENCES "public"."masters"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "master_files" ADD CONSTRAINT "master_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "master_files_storage_key_idx" ON "master_files" USING btree ("storage_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "master_files_position_idx" ON "master_files" USING btree ("master_id","position");
--> statement-breakpoint
CREATE INDEX "master_files_user_idx" ON "master_files" USING btree ("user_id");
