import { foreignKey, type AnyPgColumn, type PgColumn } from 'drizzle-orm/pg-core';

/**
 * A reference between two clinic tables carries the clinic: `(instance_id, x_id)` → `(instance_id, id)`,
 * so the database itself refuses a row that points into another clinic (issue #16 §1). A null `x_id`
 * is not checked (MATCH SIMPLE), as with a single-column key.
 */
export function sameClinic(
  name: string,
  child: { instanceId: PgColumn; column: PgColumn },
  parent: { instanceId: AnyPgColumn; id: AnyPgColumn },
) {
  return foreignKey({ name, columns: [child.instanceId, child.column], foreignColumns: [parent.instanceId, parent.id] });
}
