-- Lets the patient search index start with instance_id (uuid) before the trigram column.
CREATE EXTENSION IF NOT EXISTS btree_gin;
