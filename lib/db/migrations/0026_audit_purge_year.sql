CREATE OR REPLACE FUNCTION "audit_logs_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The retention purge alone may delete, inside its own transaction (SET LOCAL app.audit_purge =
  -- 'on'), and only entries past their year: the setting opens nothing younger to any session.
  IF TG_OP = 'DELETE' AND current_setting('app.audit_purge', true) = 'on'
     AND OLD.created_at < now() - interval '365 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit log entries cannot be changed or deleted' USING ERRCODE = 'P0001';
END;
$$;--> statement-breakpoint
CREATE FUNCTION "audit_logs_no_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit log entries cannot be changed or deleted' USING ERRCODE = 'P0001';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_logs_no_truncate" BEFORE TRUNCATE ON "audit_logs" FOR EACH STATEMENT EXECUTE FUNCTION "audit_logs_no_truncate"();
