import { Menu } from 'lucide-react';
import { lazyWithData } from '../../../lib/lazy-with-data';
import { Suspense, useRef, useState } from 'react';

const loadDrawer = () => import('./SiteDrawer');
const SiteDrawer = lazyWithData(loadDrawer);

/**
 * Opens the site drawer. The drawer's code is fetched when the visitor
 * points at, focuses or touches the button, so the first page load stays small.
 */
export function MenuButton({ className = '' }: { className?: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const prefetch = () => void loadDrawer();
  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onTouchStart={prefetch}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu className="h-6 w-6" aria-hidden="true" />
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <SiteDrawer open={open} onOpenChange={setOpen} returnFocusTo={button} />
        </Suspense>
      )}
    </>
  );
}
