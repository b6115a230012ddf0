import { Eye, EyeOff } from 'lucide-react';
import { forwardRef, type InputHTMLAttributes, useState } from 'react';
import { controlClasses, FieldShell, useControlProps } from '../../components/ui/Field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string; error?: string; hint?: string };

/** A password input with a show/hide button (people mistype passwords they cannot see). */
export const PasswordField = forwardRef<HTMLInputElement, Props>(function PasswordField({ label, error, hint, id, ...rest }, ref) {
  const control = useControlProps(id, error, hint);
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell label={label} error={error} hint={hint} id={control.id}>
      <div className="relative">
        <input
          ref={ref}
          {...control}
          type={visible ? 'text' : 'password'}
          className={`${controlClasses(Boolean(error))} pr-11`}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          aria-controls={control.id}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-600 hover:text-slate-900"
        >
          {visible ? <EyeOff className="h-5 w-5" aria-hidden="true" /> : <Eye className="h-5 w-5" aria-hidden="true" />}
        </button>
      </div>
    </FieldShell>
  );
});
