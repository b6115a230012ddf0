import { Link } from 'wouter';
import { SITE } from '../../../site-config';

/** The leaf mark and the brand name; links home. */
export function Logo({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  return (
    <Link
      href="/"
      className={`inline-flex items-center gap-2 rounded-md text-xl font-extrabold tracking-tight ${tone === 'light' ? 'text-white' : 'text-brand-900'}`}
    >
      <LogoMark className="h-9 w-9" />
      <span>{SITE.brandName}</span>
      <span className="sr-only">, home</span>
    </Link>
  );
}

export function LogoMark({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <path d="M20 44c0-14 8-24 24-26-2 16-10 26-24 26z" fill="#ccfbf1" />
      <path d="M20 44c6-8 12-13 20-18" stroke="#0f766e" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}
