import type { z } from 'zod';

/**
 * The maximum length a contract schema allows for the text at `path` ("primaryInsurance.payer",
 * "contacts.name", "medications.dose": array levels are skipped), so a page's `maxLength` is the
 * server's limit and a patient is never let type 5,000 characters that only the save refuses.
 * Undefined when the path holds no string with a maximum.
 */
export function maxLengthAt(schema: z.ZodType, path: string): number | undefined {
  let current: unknown = schema;
  for (const key of path.split('.').filter((part) => !/^\d+$/.test(part))) {
    const shape = objectShape(current);
    if (!shape) return undefined;
    current = shape[key];
  }
  return stringMaximum(current);
}

type Def = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  options?: unknown[];
  shape?: Record<string, unknown>;
};
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def: Def } } | undefined)?._zod?.def;

/** Through optional, nullable, default, transforms and arrays to the schema that holds the value. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 20; depth++) {
    const def = defOf(current);
    if (!def) return current;
    if (def.innerType !== undefined) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'array') current = def.element;
    else return current;
  }
  return current;
}

function objectShape(schema: unknown): Record<string, unknown> | undefined {
  const def = defOf(unwrap(schema));
  return def?.type === 'object' ? def.shape : undefined;
}

function stringMaximum(schema: unknown): number | undefined {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def?.type === 'union') {
    const maxima = (def.options ?? []).map(stringMaximum).filter((value): value is number => value !== undefined);
    return maxima.length > 0 ? Math.max(...maxima) : undefined;
  }
  if (def?.type !== 'string') return undefined;
  const maxima = ((def as { checks?: unknown[] }).checks ?? [])
    .map((check) => (check as { _zod?: { def?: { check?: string; maximum?: number } } })._zod?.def)
    .filter((check) => check?.check === 'max_length' && typeof check.maximum === 'number')
    .map((check) => check!.maximum!);
  return maxima.length > 0 ? Math.min(...maxima) : undefined;
}
