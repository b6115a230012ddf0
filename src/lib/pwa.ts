import { useSyncExternalStore } from 'react';
import { NOTIFICATION_OPEN, SKIP_WAITING } from '../sw/messages';

/**
 * The page's side of the installable app (decision 116): registers the service worker (src/sw/sw.ts)
 * once the page has loaded and the browser is idle, tells when a new version waits, keeps the
 * browser's install offer for the dashboard's "Install Poshan", and follows notification clicks.
 * Only the signed-in areas import this: public pages never register the worker, so their first
 * paint and their JavaScript stay as they were.
 */

type State = { updateReady: boolean; installOffer: BeforeInstallPromptEvent | null; installed: boolean };

/** Chromium's install offer (not in TypeScript's DOM types). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

declare global {
  interface Window {
    /** The install offer, caught by main.tsx before this module loads (the browser makes it once per page). */
    __poshanInstallOffer?: BeforeInstallPromptEvent;
  }
  interface WindowEventMap {
    beforeinstallprompt: BeforeInstallPromptEvent;
  }
}

let state: State = { updateReady: false, installOffer: null, installed: false };
const listeners = new Set<() => void>();
const set = (patch: Partial<State>) => {
  state = { ...state, ...patch };
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

let started = false;
let registration: ServiceWorkerRegistration | null = null;

/** Registers the worker after load (idempotent) and starts listening to it. `onOpen` moves the app to a clicked notification's path. */
export function startPwa(onOpen: (path: string) => void): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  if (window.__poshanInstallOffer) set({ installOffer: window.__poshanInstallOffer });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    set({ installOffer: event });
  });
  window.addEventListener('appinstalled', () => set({ installOffer: null, installed: true }));
  if (!('serviceWorker' in navigator)) return;

  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown; url?: unknown } | null;
    if (data?.type !== NOTIFICATION_OPEN || typeof data.url !== 'string') return;
    const url = new URL(data.url, location.origin);
    if (url.origin === location.origin) onOpen(`${url.pathname}${url.search}${url.hash}`);
  });

  const register = async () => {
    try {
      registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    } catch (error) {
      console.warn('service worker registration failed', error);
      return;
    }
    const reg = registration;
    // A version installed while a page it did not load is open waits for the user's "Reload".
    const watch = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const check = () => {
        if (worker.state === 'installed' && navigator.serviceWorker.controller) set({ updateReady: true });
      };
      check();
      worker.addEventListener('statechange', check);
    };
    watch(reg.waiting);
    reg.addEventListener('updatefound', () => watch(reg.installing));
    // Look for a new version now and then while the app stays open (an installed app may stay open for days).
    setInterval(() => void reg.update().catch(() => {}), 60 * 60 * 1000);
  };
  const whenIdle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(() => void register(), { timeout: 5000 }) : setTimeout(register, 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** The waiting version takes over, then the page reloads into it (only when the user chose to). */
export function applyUpdate(): void {
  const waiting = registration?.waiting;
  if (!waiting) {
    location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage({ type: SKIP_WAITING });
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const offer = state.installOffer;
  if (!offer) return 'unavailable';
  set({ installOffer: null });
  window.__poshanInstallOffer = undefined;
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  if (outcome === 'accepted') set({ installed: true });
  return outcome;
}

/** The worker's registration once it is ready (for push subscriptions). */
export async function readyRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  return navigator.serviceWorker.ready;
}

export function usePwaState(): State {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

/** Opened from the home screen (or as an installed app): nothing to install. */
export function isStandalone(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
}

/** An iPhone or iPad (iPadOS says Macintosh, with touch): installing there is Share → Add to Home Screen. */
export function isIos(): boolean {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}
