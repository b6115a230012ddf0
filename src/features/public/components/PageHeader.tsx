import type { ReactNode } from 'react';

/** The dark band at the top of every inner page, holding its one <h1>. */
export function PageHeader({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="relative isolate overflow-hidden bg-slate-900 text-white">
      <svg className="absolute inset-0 -z-10 h-full w-full opacity-40" aria-hidden="true" focusable="false" preserveAspectRatio="none">
        <defs>
          <radialGradient id="page-header-glow" cx="85%" cy="0%" r="80%">
            <stop offset="0%" stopColor="#14b8a6" stopOpacity="0.55" />
            <stop offset="100%" stopColor="#0f172a" stopOpacity="0" />
          </radialGradient>
        </defs>
        <rect width="100%" height="100%" fill="url(#page-header-glow)" />
      </svg>
      <div className="page-container py-14 md:py-20">
        {eyebrow && <p className="text-sm font-bold tracking-widest text-brand-300 uppercase">{eyebrow}</p>}
        <h1 className="mt-2 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {lead && <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-300">{lead}</p>}
        {children}
      </div>
    </div>
  );
}
