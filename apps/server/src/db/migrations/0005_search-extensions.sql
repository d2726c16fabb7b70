-- Accent- and case-insensitive patient search ("gonzal" finds "González"): unaccent folds accents,
-- pg_trgm indexes substrings. unaccent() is only STABLE, so an IMMUTABLE wrapper with an explicit
-- dictionary lets a generated column and an index use it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pathwell_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(public.unaccent('public.unaccent'::regdictionary, value))
$$;
