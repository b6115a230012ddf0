import { forwardRef, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

/**
 * A labelled form control with its error message underneath, wired for
 * screen readers (aria-invalid, aria-describedby). Invalid fields get a red border.
 */
type FieldShellProps = {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id: string;
  children: ReactNode;
  hideLabel?: boolean;
  /** The error message is shown elsewhere (FieldErrorLines, with id `<id>-error`), e.g. under a row of narrow fields. */
  errorApart?: boolean;
};

export function FieldShell({ label, error, hint, id, children, hideLabel, errorApart }: FieldShellProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-slate-800'}>
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && !errorApart && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The errors of a row of fields shown with `errorApart`, each on its own
 * line under the row, named by its field unless the message already starts
 * with its name, so narrow fields keep their width and the row its alignment.
 */
export function FieldErrorLines({
  errors,
  className = '',
}: {
  errors: { id: string; label: string; message?: string }[];
  className?: string;
}) {
  const shown = errors.filter((e) => e.message);
  if (shown.length === 0) return null;
  return (
    <div className={`flex flex-col gap-0.5 ${className}`}>
      {shown.map((e) => (
        <p key={e.id} id={`${e.id}-error`} role="alert" className="text-sm text-red-700">
          {e.message!.toLowerCase().startsWith(e.label.toLowerCase()) ? e.message : `${e.label}: ${e.message}`}
        </p>
      ))}
    </div>
  );
}

export const controlClasses = (invalid: boolean) =>
  `w-full rounded-lg border bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-2 ${
    invalid ? 'border-red-600 focus:ring-red-300' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-200'
  }`;

/** The id and aria wiring every control shares: its error, else its hint, describes it. */
export function useControlProps(id: string | undefined, error: string | undefined, hint: ReactNode) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return {
    id: inputId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined,
  };
}

type ControlProps = { label: ReactNode; error?: string; hint?: ReactNode; hideLabel?: boolean; errorApart?: boolean };

export const TextField = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & ControlProps>(function TextField(
  { label, error, hint, hideLabel, errorApart, id, className = '', ...rest },
  ref,
) {
  const control = useControlProps(id, error, hint);
  return (
    <FieldShell label={label} error={error} hint={hint} id={control.id} hideLabel={hideLabel} errorApart={errorApart}>
      <input ref={ref} {...control} className={`${controlClasses(Boolean(error))} ${className}`} {...rest} />
    </FieldShell>
  );
});

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & ControlProps>(
  function TextAreaField({ label, error, hint, hideLabel, errorApart, id, className = '', ...rest }, ref) {
    const control = useControlProps(id, error, hint);
    return (
      <FieldShell label={label} error={error} hint={hint} id={control.id} hideLabel={hideLabel} errorApart={errorApart}>
        <textarea ref={ref} {...control} className={`${controlClasses(Boolean(error))} ${className}`} {...rest} />
      </FieldShell>
    );
  },
);

export const SelectField = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & ControlProps>(function SelectField(
  { label, error, hint, hideLabel, errorApart, id, className = '', children, ...rest },
  ref,
) {
  const control = useControlProps(id, error, hint);
  return (
    <FieldShell label={label} error={error} hint={hint} id={control.id} hideLabel={hideLabel} errorApart={errorApart}>
      <select ref={ref} {...control} className={`${controlClasses(Boolean(error))} ${className}`} {...rest}>
        {children}
      </select>
    </FieldShell>
  );
});
