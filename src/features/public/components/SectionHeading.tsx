import type { ReactNode } from 'react';

/** A section's eyebrow, h2 and lead paragraph. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
  align = 'center',
  tone = 'light',
}: {
  id: string;
  eyebrow?: string;
  title: ReactNode;
  lead?: ReactNode;
  align?: 'center' | 'left';
  tone?: 'light' | 'dark';
}) {
  const dark = tone === 'dark';
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow && <p className={`text-sm font-bold tracking-widest uppercase ${dark ? 'text-brand-300' : 'text-brand-700'}`}>{eyebrow}</p>}
      <h2
        id={id}
        className={`mt-2 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl ${dark ? 'text-white' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      {lead && <p className={`mt-4 text-lg leading-relaxed ${dark ? 'text-slate-300' : 'text-slate-600'}`}>{lead}</p>}
    </div>
  );
}
