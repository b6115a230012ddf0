import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

export type PageProps = {
  title: string;
  /** The browser tab's title; the page title by default. */
  documentTitle?: string;
  lead?: ReactNode;
  actions?: ReactNode;
  /** Shown above the title, e.g. a back link. */
  before?: ReactNode;
  children: ReactNode;
  /**
   * How wide the content may grow (a narrow form, say). The title always
   * starts at the area's one left edge, whatever the content's width; the
   * actions end where the content ends, beside it rather than across the page.
   */
  width?: string;
};

/** A signed-in screen: its title, optional lead text and actions. */
export function Page({ title, documentTitle = title, lead, actions, before, children, width }: PageProps) {
  useDocumentTitle(documentTitle);
  return (
    <div className="w-full">
      {before}
      <div className={`mb-5 flex flex-wrap items-end justify-between gap-3 ${width ?? ''}`}>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          {lead && <p className="mt-1 text-sm text-slate-600 sm:text-base">{lead}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {width ? <div className={width}>{children}</div> : children}
    </div>
  );
}
