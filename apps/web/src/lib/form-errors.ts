import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Puts the server's `fields` (field path → validation key) next to the inputs that show them;
 * returns whether any field was placed, so the caller shows the general message only otherwise.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  shownFields: readonly Path<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let placed = false;
  for (const [field, key] of Object.entries(error.fields)) {
    const match = shownFields.find((candidate) => candidate === field);
    if (match) {
      setError(match, { type: 'server', message: key });
      placed = true;
    }
  }
  return placed;
}
