import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * Previous and next page, for every paged list (My Diet Plans and the console's lists). An arrow
 * that cannot be used looks it: grey on grey, no hover, a not-allowed cursor.
 */
export function PagerArrows({
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <div className="flex gap-2" data-testid="pager-arrows">
      <Arrow label="Previous page" disabled={!hasPrevious} onClick={onPrevious}>
        <ChevronLeft className="h-5 w-5" aria-hidden="true" />
      </Arrow>
      <Arrow label="Next page" disabled={!hasNext} onClick={onNext}>
        <ChevronRight className="h-5 w-5" aria-hidden="true" />
      </Arrow>
    </div>
  );
}

function Arrow({ label, disabled, onClick, children }: { label: string; disabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex h-9 w-9 items-center justify-center rounded-full border border-brand-700 bg-white text-brand-800 transition-colors hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-slate-100"
    >
      {children}
    </button>
  );
}
