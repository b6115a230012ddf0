import { useState } from 'react';
import type { ZodType } from 'zod';
import { fieldErrors } from '../../lib/errors';
import { toastError } from '../../lib/notify';
import { newRequestKey } from '../../lib/request-key';

/**
 * The small forms of the care record: values as typed, the shared zod schema
 * checked before sending (the server's same messages under each field), one
 * request key per submission kept across retries, and the server's field
 * errors shown where they belong.
 */
export function useRecordForm<Values extends Record<string, string>>(schema: ZodType, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [key, setKey] = useState(newRequestKey);
  const [busy, setBusy] = useState(false);

  const set = (field: keyof Values & string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  /** Checks, then sends with this submission's key; answers true once stored (the form is then cleared for the next one). */
  const submit = async (
    send: (parsed: Record<string, unknown>, clientRequestId: string) => Promise<unknown>,
    extra: Record<string, unknown> = {},
  ) => {
    const blankless = Object.fromEntries(Object.entries({ ...values, ...extra }).map(([k, v]) => [k, v === '' ? null : v]));
    const parsed = schema.safeParse(blankless);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return false;
    }
    setBusy(true);
    try {
      await send(parsed.data as Record<string, unknown>, key);
      setValues(initial);
      setErrors({});
      setKey(newRequestKey());
      return true;
    } catch (error) {
      const fe = fieldErrors(error);
      setErrors(Object.fromEntries(Object.entries(fe).map(([k, v]) => [k, v[0] ?? ''])));
      if (Object.keys(fe).length === 0) toastError(error);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { values, errors, set, submit, busy, setErrors };
}
