import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose rules load on first use. A form page can then hydrate without
 * evaluating zod and the shared schema (one of the longest tasks of a prerendered form page): the
 * rules are fetched and evaluated when `preload` is called (on the form's first focus) or, at the
 * latest, when the form first validates (its submit). A failed load is tried again next time.
 */
export function lazyResolver<TInput extends FieldValues, TOutput>(
  load: () => Promise<Resolver<TInput, unknown, TOutput>>,
): Resolver<TInput, unknown, TOutput> & { preload: () => void } {
  let loading: Promise<Resolver<TInput, unknown, TOutput>> | undefined;
  const resolver = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolve: Resolver<TInput, unknown, TOutput> = async (values, context, options) => (await resolver())(values, context, options);
  return Object.assign(resolve, { preload: () => void resolver().catch(() => {}) });
}
