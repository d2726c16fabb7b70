import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';

/**
 * The spec's `paginationFilter` of every paged list (section 7), plus `exactTotal`: ask for the exact
 * number of matches even past `LIST_COUNT_LIMIT` (issue #10 §1). `coerce` is for query strings.
 */
export function paginationFilterSchemaOf({ maxPageSize, coerce = false }: { maxPageSize: number; coerce?: boolean }) {
  const number = coerce ? z.coerce.number() : z.number();
  return z.object({
    pageSize: number.int('invalid').min(1, 'numberOutOfRange').max(maxPageSize, 'numberOutOfRange').default(PAGE_SIZE_DEFAULT),
    pageNumber: number.int('invalid').min(0, 'numberOutOfRange').default(PAGE_NUMBER_DEFAULT),
    exactTotal: z.boolean().optional(),
  });
}

/** Every page answer: the total, and whether it is exact or a lower bound ("more than 10,000"). */
export const listTotalShape = {
  totalRecords: z.number().int(),
  totalExact: z.boolean(),
};
