-- The chain trigger looked up the previous row with IS NOT DISTINCT FROM, which no index serves: every
-- insert read the whole log (50,000 rows took minutes in PGlite). Looking it up by the same expression
-- as the unique index activity_logs_chain_key turns that into one index probe.
CREATE OR REPLACE FUNCTION activity_logs_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('activity_logs:' || coalesce(NEW.instance_id::text, 'none')));
  SELECT l.chain_seq, l.hash INTO previous FROM activity_logs l
    WHERE coalesce(l.instance_id::text, '') = coalesce(NEW.instance_id::text, '')
    ORDER BY coalesce(l.instance_id::text, '') DESC, l.chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(previous.chain_seq, 0) + 1;
  NEW.prev_hash := coalesce(previous.hash, '');
  NEW.created_at := coalesce(NEW.created_at, now());
  NEW.hash := activity_log_hash(NEW.prev_hash, NEW.chain_seq, NEW.id, NEW.instance_id, NEW.actor_user_id, NEW.actor_email,
    NEW.area, NEW.action, NEW.target_type, NEW.target_id, NEW.description, NEW.ip, NEW.created_at);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE INDEX activity_logs_actor_idx ON activity_logs (instance_id, actor_user_id);
