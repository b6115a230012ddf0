import { type ComponentType, lazy } from 'react';

/**
 * A lazy screen that calls the API: its chunk loads together with the data
 * layer (React Query, the tRPC client, superjson) and renders inside
 * DataProvider. Public pages that call nothing on their first screen (the
 * home page) never download that layer.
 */
export function lazyWithData<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async () => {
    const [screen, { DataProvider }] = await Promise.all([load(), import('./data-provider')]);
    const Screen = screen.default;
    return {
      default: (props: P) => (
        <DataProvider>
          <Screen {...props} />
        </DataProvider>
      ),
    };
  });
}
