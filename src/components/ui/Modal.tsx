import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * The one dialog of the app (Radix Dialog: focus trap, Escape, outside click).
 * Spec: 450 px wide from the small breakpoint up, 90% on mobile; the backdrop fades in 500 ms.
 * The header (title, close) and the footer (actions) stay on screen while the body scrolls. It sits above
 * every fixed bar of the app (the top bar, the drawer, the phone's tab bar); only tooltips and toasts
 * go over it.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  wide = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[1150] bg-black/50 data-[state=open]:animate-[fade-in_500ms_ease-out]" />
        <Dialog.Content
          className={`fixed top-1/2 left-1/2 z-[1151] flex max-h-[90dvh] w-[90%] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl bg-white shadow-2xl focus:outline-none ${
            wide ? 'sm:w-[640px]' : 'sm:w-[450px]'
          }`}
        >
          {/* Title and close stay put; only the body scrolls, so a long form keeps its way out and its action on screen. */}
          <div className="flex shrink-0 items-start justify-between gap-4 border-b border-slate-200 px-6 pt-6 pb-4">
            <Dialog.Title className="text-xl font-bold text-slate-900">{title}</Dialog.Title>
            <Dialog.Close
              className="-mt-2.5 -mr-3 flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
              aria-label="Close"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-6 pt-4 pb-6" data-testid="modal-body">
            {description ? (
              <Dialog.Description className="mb-4 text-sm text-slate-600">{description}</Dialog.Description>
            ) : (
              <Dialog.Description className="sr-only">{title}</Dialog.Description>
            )}
            {children}
          </div>
          {footer && (
            <div className="flex shrink-0 justify-end gap-3 border-t border-slate-200 bg-white px-6 py-4" data-testid="modal-footer">
              {footer}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const ModalClose = Dialog.Close;
