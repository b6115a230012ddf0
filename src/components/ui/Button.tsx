import { type ButtonHTMLAttributes, forwardRef } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'dangerSecondary';
type Size = 'sm' | 'md' | 'lg';

const variants: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60',
  // A disabled button must not look (or hover) like one that works.
  secondary:
    'border border-brand-700 text-brand-800 bg-white hover:bg-brand-50 disabled:border-slate-200 disabled:bg-slate-100 disabled:text-slate-400',
  ghost: 'text-brand-800 hover:bg-brand-50 disabled:bg-transparent disabled:text-slate-400',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
  /** A destructive action that is not the page's main one: outlined, red. */
  dangerSecondary:
    'border border-red-300 bg-white text-red-700 hover:bg-red-50 disabled:border-slate-200 disabled:bg-slate-100 disabled:text-slate-400',
};
/** On a phone every button is at least 44 px high, a thumb's target; wider screens keep the denser sizes. */
const sizes: Record<Size, string> = {
  sm: 'px-3 py-1.5 text-sm max-sm:min-h-11',
  md: 'px-4 py-2 text-base max-sm:min-h-11',
  lg: 'px-6 py-3 text-lg',
};

/** Class names for a button look, for links styled as buttons. */
export const buttonClasses = (variant: Variant = 'primary', size: Size = 'md', extra = '') =>
  `inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed ${variants[variant]} ${sizes[size]} ${extra}`;

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className = '', type = 'button', ...rest },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClasses(variant, size, className)} {...rest} />;
});
