ALTER TABLE "jobs" ADD COLUMN "concurrency_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Workers wait on NOTIFY jobs_ready instead of polling: every statement that writes jobs wakes them at commit.
CREATE OR REPLACE FUNCTION jobs_ready_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('jobs_ready', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_ready_notify AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION jobs_ready_notify();
