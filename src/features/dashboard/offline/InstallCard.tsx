import { Download, Share, SquarePlus, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { isIos, isStandalone, promptInstall, usePwaState } from '../../../lib/pwa';

const DISMISSED_KEY = 'poshan:install-dismissed';
/** "Not now" hides the offer for this long. */
const QUIET_MS = 30 * 24 * 60 * 60 * 1000;

const dismissedRecently = () => {
  const at = Number(localStorage.getItem(DISMISSED_KEY));
  return Number.isFinite(at) && Date.now() - at < QUIET_MS;
};

/**
 * "Install Poshan" when the browser offers to install it, or, on an iPhone (which makes no offer),
 * how to add it to the Home Screen: web push works there only from the installed app.
 */
export function InstallCard() {
  const { installOffer, installed } = usePwaState();
  const [hidden, setHidden] = useState(() => dismissedRecently() || isStandalone());
  const ios = !installOffer && isIos();
  if (hidden || installed || (!installOffer && !ios)) return null;
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    setHidden(true);
  };
  return (
    <section
      aria-labelledby="install-title"
      className="relative mb-5 flex flex-col gap-3 rounded-2xl border border-brand-200 bg-brand-50 p-4 pr-12 sm:flex-row sm:items-center sm:gap-4 sm:p-5 sm:pr-14"
      data-testid={ios ? 'ios-install-guide' : 'install-card'}
    >
      <img src="/icons/icon-192.png" alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded-xl" />
      <div className="min-w-0 flex-1">
        <h2 id="install-title" className="text-base font-bold text-slate-900">
          {ios ? 'Add Poshan to your Home Screen' : 'Install Poshan'}
        </h2>
        {ios ? (
          <ol className="mt-1 flex flex-col gap-1 text-sm text-slate-700">
            <li className="flex items-center gap-1.5">
              1. Tap <Share className="h-4 w-4 text-brand-800" aria-label="Share" /> in Safari’s toolbar.
            </li>
            <li className="flex items-center gap-1.5">
              2. Choose <SquarePlus className="h-4 w-4 text-brand-800" aria-hidden="true" /> <strong>Add to Home Screen</strong>.
            </li>
            <li>3. Open Poshan from its new icon: your dietitian’s messages then reach you as notifications.</li>
          </ol>
        ) : (
          <p className="mt-1 text-sm text-slate-700">
            Open Poshan from your home screen like an app, even on a weak connection, and hear from your dietitian when it is closed.
          </p>
        )}
      </div>
      {!ios && (
        <Button onClick={() => void promptInstall()} className="self-start sm:self-center">
          <Download className="h-4 w-4" aria-hidden="true" />
          Install
        </Button>
      )}
      <button
        type="button"
        onClick={dismiss}
        className="absolute top-2 right-2 rounded-lg p-2 text-slate-600 hover:bg-brand-100 hover:text-slate-900"
        aria-label="Not now"
      >
        <X className="h-5 w-5" aria-hidden="true" />
      </button>
    </section>
  );
}
