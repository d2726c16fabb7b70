-- Row-level security as the database's own backstop behind the services' clinic filters (decision 0022).
-- Two roles that own nothing and cannot log in; the application's connection switches to one of them for
-- the length of a transaction. Roles are cluster-wide: several Pathwell databases on one server share them.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pathwell_app') THEN
    CREATE ROLE pathwell_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pathwell_system') THEN
    CREATE ROLE pathwell_system NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
-- A superuser may switch to any role; any other migrating role needs membership to do so.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pathwell_app, pathwell_system TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pathwell_app, pathwell_system;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO pathwell_app, pathwell_system;
--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO pathwell_app, pathwell_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO pathwell_app, pathwell_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO pathwell_app, pathwell_system;
--> statement-breakpoint
GRANT USAGE ON SCHEMA drizzle TO pathwell_system;
--> statement-breakpoint
GRANT SELECT ON drizzle.__drizzle_migrations TO pathwell_system;
--> statement-breakpoint
-- The clinics a transaction acts for: `set_config('pathwell.instance_ids', 'id,id', true)`. None set: none.
CREATE OR REPLACE FUNCTION pathwell_tenant_ids() RETURNS uuid[]
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT coalesce(string_to_array(nullif(current_setting('pathwell.instance_ids', true), ''), ',')::uuid[], '{}'::uuid[]) $$;
--> statement-breakpoint
-- Every table with an instance_id: enabled and forced (the owner too), one policy per role.
DO $$
DECLARE
  tenant_table text;
BEGIN
  FOR tenant_table IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'instance_id' AND t.table_type = 'BASE TABLE'
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY system_access ON %I TO pathwell_system USING (true) WITH CHECK (true)', tenant_table);
    IF tenant_table <> 'users' THEN
      EXECUTE format(
        'CREATE POLICY clinic_isolation ON %I TO pathwell_app USING (instance_id = ANY (pathwell_tenant_ids())) WITH CHECK (instance_id = ANY (pathwell_tenant_ids()))',
        tenant_table);
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- Staff accounts belong to a home clinic and, for parent users, to other clinics through memberships.
CREATE POLICY clinic_isolation ON users TO pathwell_app
  USING (instance_id = ANY (pathwell_tenant_ids())
    OR EXISTS (SELECT 1 FROM user_instances ui WHERE ui.user_id = users.id AND ui.instance_id = ANY (pathwell_tenant_ids())))
  WITH CHECK (instance_id = ANY (pathwell_tenant_ids())
    OR EXISTS (SELECT 1 FROM user_instances ui WHERE ui.user_id = users.id AND ui.instance_id = ANY (pathwell_tenant_ids())));
--> statement-breakpoint
-- Under row-level security PostgreSQL uses a condition in an index only when its functions are marked
-- LEAKPROOF (they could otherwise see rows before the policy filtered them). lower() and LIKE/ILIKE have
-- no side effects and fail only on a malformed pattern, which is the query's parameter, never a row's
-- value; without the mark the patient search and the lower(email)/lower(last_name) lookups scan the whole
-- clinic. Only a superuser may set the mark: on a server where the migrating role is not one, a DBA runs
-- these four statements once (docs/decisions/0022).
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.lower(text) LEAKPROOF;
    ALTER FUNCTION pg_catalog.textlike(text, text) LEAKPROOF;
    ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF;
    ALTER FUNCTION pg_catalog.textnlike(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'pathwell: not a superuser, lower() and LIKE stay non-leakproof; see docs/decisions/0022';
  END IF;
END $$;
