import { forwardRef, type InputHTMLAttributes, useId } from 'react';

type Option = { value: string; label: string };

/**
 * A labelled group of radios (fieldset + legend) with its error underneath.
 * `register(...)` props are spread on every radio.
 */
export const RadioGroupField = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value'> & { legend: string; options: readonly Option[]; error?: string }
>(function RadioGroupField({ legend, options, error, name, ...rest }, ref) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined} className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label
            key={option.value}
            className={`inline-flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-slate-800 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${
              error ? 'border-red-600' : 'border-slate-300'
            }`}
          >
            <input type="radio" value={option.value} name={name} ref={ref} className="h-4 w-4 accent-brand-700" {...rest} />
            {option.label}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
});
