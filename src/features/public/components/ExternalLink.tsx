import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { EXTERNAL } from '../../../site-config';

/** A link that leaves the site: new tab, no opener, and says so to screen readers. */
export function ExternalLink({ children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { children: ReactNode }) {
  return (
    <a {...EXTERNAL} {...rest}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
