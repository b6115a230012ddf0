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

/**
 * What the tab shows: the page's title, after a count of new things when there are any
 * ("(2) Messages | Poshan"), so a new message is seen from another tab or the phone's app switcher.
 */
const shown: { title: string | null; area: string; count: number } = { title: null, area: '', count: 0 };
const showTitle = () => {
  if (shown.title === null) return;
  // Every page of an area ends the same way ("Calendar · Console | Poshan"), whoever wrote its title.
  const suffix = ` · ${shown.area}`;
  const page = shown.area && shown.title && !shown.title.endsWith(suffix) ? `${shown.title}${suffix}` : shown.title;
  const full = documentTitle(page);
  document.title = shown.count > 0 ? `(${shown.count > 99 ? '99+' : shown.count}) ${full}` : full;
};

/** Names the signed-in area (the console) after every page title while mounted. */
export function useTitleArea(area: string) {
  useEffect(() => {
    shown.area = area;
    showTitle();
    return () => {
      shown.area = '';
    };
  }, [area]);
}

/** Puts `count` (unread messages, new comments) before every page title while mounted; 0 shows none. */
export function useTitleCount(count: number) {
  useEffect(() => {
    shown.count = count;
    showTitle();
    return () => {
      shown.count = 0;
      showTitle();
    };
  }, [count]);
}

/** Sets the page's <title> and meta description (every page has its own). */
export function useDocumentTitle(title: string, description?: string) {
  if (typeof document === 'undefined') prerenderedHead.current = { title: documentTitle(title), description };
  useEffect(() => {
    shown.title = title;
    showTitle();
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
