import type { PgPreparedQuery, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Database } from './client';

interface Preparable<TResult> {
  prepare(name: string): PgPreparedQuery<PreparedQueryConfig & { execute: TResult }>;
}

/**
 * What drizzle (0.45) keeps on a prepared query besides its text: how to map the row arrays back. Not
 * in its public types; the auth, dashboard and patient tests run every caller through this mapping.
 */
interface PreparedInternals {
  fields?: Parameters<Database['_']['session']['prepareQuery']>[1];
  joinsNotNullableMap?: Record<string, boolean>;
}

/**
 * A fixed-shape query built once per process (values come in through `sql.placeholder`) and run on
 * whatever connection it is given, the pool or a transaction's. Building a drizzle select costs
 * ≈0.1–0.3 ms of CPU per call, more than PostgreSQL needs to answer a small indexed one, and
 * drizzle's own `.prepare()` ties the statement to the connection it was made on, so it cannot serve
 * a transaction. With a `name`, PostgreSQL also parses and plans it once per pooled connection (a
 * named statement; PGlite ignores the name): give one only to statements whose plan does not depend
 * on the values (lookups by id), never to searches whose best plan does.
 */
export function reusableQuery<TResult>(name: string | undefined, build: (db: Database) => Preparable<TResult>) {
  let template: (PgPreparedQuery<PreparedQueryConfig & { execute: TResult }> & PreparedInternals) | undefined;
  return (db: Database, values: Record<string, unknown>): Promise<TResult> => {
    template ??= build(db).prepare(name as string) as typeof template & PreparedInternals;
    const query = db._.session.prepareQuery<PreparedQueryConfig & { execute: TResult }>(
      template!.getQuery(),
      template!.fields,
      name,
      true,
    ) as PgPreparedQuery<PreparedQueryConfig & { execute: TResult }> & PreparedInternals;
    query.joinsNotNullableMap = template!.joinsNotNullableMap;
    return query.execute(values);
  };
}
