import { useEffect } from 'react';
import { BRAND } from '../../server/brand';

export type PageHead = { title: string; description?: string };

/** The full <title> of a page: "About us | Poshan", or the brand and tagline for the home page. */
export const documentTitle = (title: string) => (title ? `${title} | ${BRAND.name}` : `${BRAND.name} — ${BRAND.tagline}`);

/**
 * While a page is prerendered at build time (no document), useDocumentTitle
 * records its head here, so the built HTML carries the same title and
 * description the page sets in the browser.
 */
export const prerenderedHead: { current: PageHead | null } = { current: null };

/** Sets the page's <title> and meta description (every page has its own). */
export function useDocumentTitle(title: string, description?: string) {
  if (typeof document === 'undefined') prerenderedHead.current = { title: documentTitle(title), description };
  useEffect(() => {
    document.title = documentTitle(title);
    if (description) {
      let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'description';
        document.head.append(meta);
      }
      meta.content = description;
    }
  }, [title, description]);
}
