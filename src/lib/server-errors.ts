import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { fieldErrors } from './errors';

/**
 * Puts the server's field errors on the form's fields and focuses the first.
 * Returns whether any field took one (else the caller shows a toast).
 */
export function applyServerErrors<T extends FieldValues>(form: UseFormReturn<T, any, any>, error: unknown, fields: readonly Path<T>[]) {
  const errors = fieldErrors(error);
  const hits = fields.filter((f) => errors[f]?.[0]);
  for (const [i, field] of hits.entries()) form.setError(field, { message: errors[field]![0] }, { shouldFocus: i === 0 });
  return hits.length > 0;
}
