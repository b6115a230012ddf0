import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GlassWater, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { WATER_GLASSES_MAX } from '../../../server/journal/schema';
import { toastError } from '../../lib/notify';
import { useTRPC } from '../../lib/trpc';

/**
 * Glasses of water of the day shown. A tap counts at once; the number is
 * saved a moment after the last tap, so quick taps make one request.
 * A dietitian (readOnly) sees the count.
 */
export function WaterCounter({ date, glasses, readOnly }: { date: string; glasses: number; readOnly: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const save = useMutation(trpc.journal.setWater.mutationOptions());
  const [count, setCount] = useState(glasses);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const dirty = useRef(false);

  useEffect(() => {
    if (!dirty.current) setCount(glasses);
  }, [glasses]);
  useEffect(() => () => clearTimeout(pending.current), []);

  const change = (delta: number) => {
    const next = Math.min(WATER_GLASSES_MAX, Math.max(0, count + delta));
    if (next === count) return;
    setCount(next);
    dirty.current = true;
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      save
        .mutateAsync({ date, glasses: next })
        .then(() => void queryClient.invalidateQueries({ queryKey: trpc.journal.day.queryKey() }))
        .catch((error) => {
          toastError(error);
          setCount(glasses);
        })
        .finally(() => {
          dirty.current = false;
        });
    }, 400);
  };

  return (
    <section aria-labelledby="water-title" className="rounded-2xl border border-sky-100 bg-sky-50 p-4">
      <div className="flex items-center gap-3">
        <GlassWater className="h-8 w-8 shrink-0 text-sky-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 id="water-title" className="font-semibold text-slate-900">
            Water
          </h2>
          <p className="text-sm text-slate-700" aria-live="polite" data-testid="water-count">
            {count} {count === 1 ? 'glass' : 'glasses'}
          </p>
        </div>
        {!readOnly && (
          <div className="flex items-center gap-2">
            <button
              type="button"
              onClick={() => change(-1)}
              disabled={count === 0}
              aria-label="One glass less"
              className="grid h-11 w-11 place-items-center rounded-full border border-sky-300 bg-white text-sky-800 hover:bg-sky-100 disabled:cursor-not-allowed disabled:opacity-40"
            >
              <Minus className="h-5 w-5" aria-hidden="true" />
            </button>
            <button
              type="button"
              onClick={() => change(1)}
              disabled={count >= WATER_GLASSES_MAX}
              aria-label="Add a glass of water"
              className="grid h-11 w-11 place-items-center rounded-full bg-sky-600 text-white hover:bg-sky-700 disabled:cursor-not-allowed disabled:opacity-40"
            >
              <Plus className="h-5 w-5" aria-hidden="true" />
            </button>
          </div>
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-1" aria-hidden="true">
        {Array.from({ length: Math.max(8, count) }, (_, i) => (
          <span
            key={i}
            className={`h-5 w-3.5 rounded-b-md border ${i < count ? 'border-sky-500 bg-sky-400' : 'border-sky-200 bg-white'}`}
          />
        ))}
      </div>
    </section>
  );
}
