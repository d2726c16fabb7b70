-- Tamper-evident, append-only activity log (issue #3, docs/decisions/0006-activity-log.md).
-- Each row's hash covers its content and the previous row's hash within the same clinic (a chain per
-- instance; rows without an instance form one chain of their own). The database, not the application,
-- computes the chain and refuses UPDATE, DELETE and TRUNCATE.
CREATE FUNCTION activity_log_hash(
  prev_hash text, chain_seq bigint, id uuid, instance_id uuid, actor_user_id uuid, actor_email text, area text,
  action text, target_type text, target_id text, description text, ip text, created_at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(concat_ws(E'\x1f',
    prev_hash, chain_seq::text, id::text, coalesce(instance_id::text, ''), coalesce(actor_user_id::text, ''),
    coalesce(actor_email, ''), area, action, coalesce(target_type, ''), coalesce(target_id, ''),
    coalesce(description, ''), coalesce(ip, ''), to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
  ), 'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE FUNCTION activity_logs_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous record;
BEGIN
  -- One writer per chain at a time, so two transactions never link to the same previous row.
  PERFORM pg_advisory_xact_lock(hashtext('activity_logs:' || coalesce(NEW.instance_id::text, 'none')));
  SELECT l.chain_seq, l.hash INTO previous FROM activity_logs l
    WHERE l.instance_id IS NOT DISTINCT FROM NEW.instance_id ORDER BY l.chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(previous.chain_seq, 0) + 1;
  NEW.prev_hash := coalesce(previous.hash, '');
  NEW.created_at := coalesce(NEW.created_at, now());
  NEW.hash := activity_log_hash(NEW.prev_hash, NEW.chain_seq, NEW.id, NEW.instance_id, NEW.actor_user_id, NEW.actor_email,
    NEW.area, NEW.action, NEW.target_type, NEW.target_id, NEW.description, NEW.ip, NEW.created_at);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION activity_logs_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity_logs is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
DO $$
DECLARE
  r record;
  last_hash text;
  last_seq bigint;
  last_instance text := NULL;
BEGIN
  FOR r IN SELECT * FROM activity_logs ORDER BY coalesce(instance_id::text, ''), created_at, id LOOP
    IF last_instance IS DISTINCT FROM coalesce(r.instance_id::text, '') THEN
      last_hash := ''; last_seq := 0; last_instance := coalesce(r.instance_id::text, '');
    END IF;
    last_seq := last_seq + 1;
    UPDATE activity_logs SET chain_seq = last_seq, prev_hash = last_hash,
      hash = activity_log_hash(last_hash, last_seq, r.id, r.instance_id, r.actor_user_id, r.actor_email, r.area, r.action,
        r.target_type, r.target_id, r.description, r.ip, r.created_at)
      WHERE id = r.id RETURNING hash INTO last_hash;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_logs_chain BEFORE INSERT ON activity_logs FOR EACH ROW EXECUTE FUNCTION activity_logs_chain();
--> statement-breakpoint
CREATE TRIGGER activity_logs_no_update_delete BEFORE UPDATE OR DELETE ON activity_logs FOR EACH ROW EXECUTE FUNCTION activity_logs_refuse_change();
--> statement-breakpoint
CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON activity_logs FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_refuse_change();
--> statement-breakpoint
CREATE UNIQUE INDEX activity_logs_chain_key ON activity_logs (coalesce(instance_id::text, ''), chain_seq);
