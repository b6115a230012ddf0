import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';

/**
 * A labelled form control with its error message underneath, wired for
 * screen readers (aria-invalid, aria-describedby). Invalid fields get a red border.
 */
type FieldShellProps = { label: ReactNode; error?: string; hint?: ReactNode; id: string; children: ReactNode; hideLabel?: boolean };

export function FieldShell({ label, error, hint, id, children, hideLabel }: FieldShellProps) {
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
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export const controlClasses = (invalid: boolean) =>
  `w-full rounded-lg border bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:outline-none focus:ring-2 ${
    invalid ? 'border-red-600 focus:ring-red-300' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-200'
  }`;

type InputProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; error?: string; hint?: ReactNode; hideLabel?: boolean };

export const TextField = forwardRef<HTMLInputElement, InputProps>(function TextField(
  { label, error, hint, hideLabel, id, className = '', ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <FieldShell label={label} error={error} hint={hint} id={inputId} hideLabel={hideLabel}>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${controlClasses(Boolean(error))} ${className}`}
        {...rest}
      />
    </FieldShell>
  );
});

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  hideLabel?: boolean;
};

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextAreaField(
  { label, error, hint, hideLabel, id, className = '', ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <FieldShell label={label} error={error} hint={hint} id={inputId} hideLabel={hideLabel}>
      <textarea
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${controlClasses(Boolean(error))} ${className}`}
        {...rest}
      />
    </FieldShell>
  );
});
