import { type ComponentType, lazy } from 'react';

type Load<T> = () => Promise<T>;

/** A prerendered page before it is interactive: its loader (the one script with `data-entry`) preloads every chunk it needs. */
const hydratingPreloadedPage = () =>
  typeof document !== 'undefined' && // the prerender step renders pages in Node
  !document.documentElement.hasAttribute('data-hydrated') &&
  document.querySelector('script[data-entry]') !== null;

/** Resolves in a later task, so what ran before and what runs after are two tasks, not one long one. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The seam that keeps a prerendered page's hydration free of long tasks. A dynamic import evaluates
 * the whole not-yet-run graph of its chunk in one task; a form page's graph (React Query, tRPC,
 * superjson, zod, react-hook-form, the page) took one task of 29 ms of CPU here, about 120 ms at
 * Lighthouse's 4x phone, all of it Total Blocking Time. While the page hydrates, every chunk is
 * already fetched (the page's loader preloads them, server/http/paint-first.ts), so evaluating them
 * one group per task costs nothing but a task switch each. Elsewhere (a screen opened by navigation
 * once the page is interactive, the signed-in areas' app shell) the groups load together: there the
 * network decides, and one request after another would add round trips.
 */
async function importInStages<T>(stages: readonly Load<unknown>[], last: Load<T>): Promise<T> {
  if (!hydratingPreloadedPage()) {
    const [result] = await Promise.all([last(), ...stages.map((stage) => stage())]);
    return result;
  }
  for (const stage of stages) {
    await stage();
    await nextTask();
  }
  return last();
}

/**
 * react-hook-form, evaluated ahead of a form screen (see importInStages). Zod is not a stage: a module
 * that re-exports its namespace keeps all of zod in the bundle (60 KB more on /contact-us); a form's rules
 * load on first use instead (lib/lazy-resolver.ts), or with the screen.
 */
export const FORM_HOOKS: readonly Load<unknown>[] = [() => import('./form-libraries/react-hook-form')];

/**
 * A lazy screen that calls the API: its chunk loads together with the data
 * layer (React Query, the tRPC client, superjson) and renders inside
 * DataProvider. Public pages that call nothing on their first screen (the
 * home page) never download that layer. `before` names library groups the
 * screen needs (FORM_HOOKS), each evaluated in its own task while a
 * prerendered page hydrates.
 */
export function lazyWithData<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  opts: { before?: readonly Load<unknown>[] } = {},
) {
  return lazy(async () => {
    let DataProvider: typeof import('./data-provider').DataProvider | undefined;
    const loadData = async () => {
      DataProvider = (await import('./data-provider')).DataProvider;
    };
    const screen = await importInStages([loadData, ...(opts.before ?? [])], load);
    const Screen = screen.default;
    const Provider = DataProvider as NonNullable<typeof DataProvider>;
    return {
      default: (props: P) => (
        <Provider>
          <Screen {...props} />
        </Provider>
      ),
    };
  });
}
