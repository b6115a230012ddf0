import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { TextField } from '../../../components/ui/Field';
import { useTRPC } from '../../../lib/trpc';
import { useDebounced } from '../use-debounced';

export type PickedClient = { id: number; fullName: string; email?: string };

/**
 * Choose a client by typing the start of their name, email or phone: a
 * combobox (arrow keys move through the matches, Enter picks, Escape clears
 * the search), or a tap on a match.
 */
export function ClientPicker({
  value,
  onChange,
  error,
}: {
  value?: PickedClient;
  onChange: (client?: PickedClient) => void;
  error?: string;
}) {
  const trpc = useTRPC();
  const [q, setQ] = useState('');
  const search = useDebounced(q.trim(), 250);
  const listId = useId();
  const [active, setActive] = useState(-1);
  const found = useQuery({
    ...trpc.admin.clients.list.queryOptions({ q: search, status: 'active', pageSize: 10 }),
    enabled: !value && search.length > 0,
  });

  if (value) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-slate-800">Client</span>
        <div
          className="flex items-center justify-between gap-2 rounded-lg border border-brand-300 bg-brand-50 px-3 py-2"
          data-testid="picked-client"
        >
          {/* Name and email side by side where they fit, the email under the name on a phone; each kept whole. */}
          <span className="flex min-w-0 items-center gap-2 text-slate-900">
            <Check className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
            <span className="flex min-w-0 flex-col sm:flex-row sm:items-baseline sm:gap-2">
              <span className="font-medium">{value.fullName}</span>
              {value.email && (
                <span className="truncate text-sm text-slate-600" title={value.email}>
                  {value.email}
                </span>
              )}
            </span>
          </span>
          <button
            type="button"
            onClick={() => onChange(undefined)}
            className="shrink-0 rounded p-1 text-slate-600 hover:bg-white"
            aria-label="Choose another client"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  }

  const items = found.data?.items ?? [];
  const open = search.length > 0;
  const pick = (c: (typeof items)[number]) => {
    onChange({ id: c.id, fullName: c.fullName, email: c.email });
    setQ('');
    setActive(-1);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && items.length > 0) {
      e.preventDefault();
      setActive((i) => (i + 1) % items.length);
    } else if (e.key === 'ArrowUp' && items.length > 0) {
      e.preventDefault();
      setActive((i) => (i <= 0 ? items.length - 1 : i - 1));
    } else if (e.key === 'Enter' && open) {
      // Enter in the search never submits the form around it: it picks the highlighted match, or the only one.
      e.preventDefault();
      const chosen = items[active] ?? (items.length === 1 ? items[0] : undefined);
      if (chosen) pick(chosen);
    } else if (e.key === 'Escape' && q) {
      e.stopPropagation();
      setQ('');
      setActive(-1);
    }
  };
  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className="flex flex-col gap-1">
      <TextField
        label="Client"
        type="search"
        role="combobox"
        placeholder="Type a name, email or phone"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        error={error}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && items[active] ? optionId(active) : undefined}
        autoComplete="off"
      />
      {open && (
        <div className="max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white" data-testid="client-picker-results">
          {found.isPending ? (
            <p className="px-3 py-2 text-sm text-slate-600">Searching…</p>
          ) : items.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-600">No active client starts with “{search}”.</p>
          ) : null}
          <div id={listId} role="listbox" aria-label="Matching clients">
            {items.map((c, i) => (
              // The input keeps focus; a pointer picks with a press, the keyboard with Enter on the highlighted one.
              <div
                key={c.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                tabIndex={-1}
                className={`flex min-h-11 cursor-pointer flex-col items-start justify-center px-3 py-2 text-left hover:bg-brand-50 ${
                  i === active ? 'bg-brand-50' : ''
                }`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(c)}
                onKeyDown={(e) => e.key === 'Enter' && pick(c)}
              >
                <span className="font-medium text-slate-900">{c.fullName}</span>
                <span className="text-xs text-slate-600">{c.email}</span>
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The client a console form is for: fixed when the form was opened from a
 * client's page, else chosen with the picker. `required(message)` gives the
 * client, or shows the message under the picker and gives undefined.
 */
export function useClientChoice(initial?: PickedClient) {
  const [client, setClient] = useState<PickedClient | undefined>(initial);
  const [error, setError] = useState<string>();
  return {
    client,
    error,
    choose(next?: PickedClient) {
      setClient(next);
      setError(undefined);
    },
    required(message: string) {
      if (!client) setError(message);
      return client;
    },
  };
}

/** The form's client line: `fixed` (a sentence naming the client) when there is one, else the picker. */
export function ClientChoice({ fixed, choice }: { fixed?: ReactNode; choice: ReturnType<typeof useClientChoice> }) {
  if (fixed) return <p className="text-sm text-slate-700">{fixed}</p>;
  return <ClientPicker value={choice.client} onChange={choice.choose} error={choice.error} />;
}
