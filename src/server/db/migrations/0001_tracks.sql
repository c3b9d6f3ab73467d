CREATE TABLE "tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"duration" double precision DEFAULT 0 NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracks_type_valid" CHECK ("tracks"."type" in ('vocals', 'instrumental', 'mixed')),
	CONSTRAINT "tracks_size_nonneg" CHECK ("tracks"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mixer_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"vocal_track_id" integer,
	"instrumental_track_id" integer,
	"vocal_duration" double precision DEFAULT 0 NOT NULL,
	"instrumental_duration" double precision DEFAULT 0 NOT NULL,
	"clips" jsonb NOT NULL,
	"style" text,
	"output_volume" integer DEFAULT 80 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mixer_sessions_volume_range" CHECK ("mixer_sessions"."output_volume" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD CONSTRAINT "mixer_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD CONSTRAINT "mixer_sessions_vocal_track_id_tracks_id_fk" FOREIGN KEY ("vocal_track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_sessions" ADD CONSTRAINT "mixer_sessions_instrumental_track_id_tracks_id_fk" FOREIGN KEY ("instrumental_track_id") REFERENCES "public"."tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracks_storage_key_idx" ON "tracks" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "tracks_user_id_idx" ON "tracks" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "mixer_sessions_user_id_idx" ON "mixer_sessions" USING btree ("user_id","id");
