import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useState } from 'react';
import { OUTBOX_STATUS_LABELS } from '../../../../server/admin/outbox/schema';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { useTRPC } from '../../../lib/trpc';
import { formatMoment, linkify } from '../format';
import { Badge, EmptyState, Page, Pager, QueryStates, type Tone } from '../ui';
import { useDebounced } from '../use-debounced';

const PAGE_SIZE = 25;
const TONE: Record<keyof typeof OUTBOX_STATUS_LABELS, Tone> = { queued: 'amber', sent: 'green', failed: 'red', logged: 'slate' };

/** Every mail the app sent or kept (without SMTP the outbox is the delivery: copy links from here). */
export function OutboxPage() {
  const trpc = useTRPC();
  const [to, setTo] = useState('');
  const [page, setPage] = useState(0);
  const recipient = useDebounced(to.trim());
  const list = useQuery({
    ...trpc.admin.outbox.list.queryOptions({ to: recipient || undefined, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Outbox" lead="Mails sent or queued, newest first. Without SMTP they are kept here." width="max-w-4xl">
      <div className="mb-4 max-w-sm">
        <TextField
          label="Recipient"
          type="email"
          placeholder="Exact email address"
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            setPage(0);
          }}
        />
      </div>
      <Card>
        <QueryStates
          query={list}
          loadingLabel="Loading mails"
          empty={<EmptyState Icon={Mail}>No mails{recipient ? ` to ${recipient}` : ''}.</EmptyState>}
        >
          {(result) => (
            <>
              <ul className="divide-y divide-slate-100" data-testid="outbox-list">
                {result.items.map((m) => (
                  <li key={m.id}>
                    <details className="group p-4 sm:px-5" data-testid="outbox-mail">
                      <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-2">
                        <span className="min-w-0">
                          <span className="block font-semibold text-slate-900">{m.subject}</span>
                          <span className="block text-sm text-slate-600">to {m.to}</span>
                        </span>
                        <span className="flex items-center gap-2 text-sm text-slate-500">
                          <Badge tone={TONE[m.status]}>{OUTBOX_STATUS_LABELS[m.status]}</Badge>
                          {formatMoment(m.createdAt)}
                        </span>
                      </summary>
                      <pre
                        className="mt-3 overflow-x-auto rounded-xl bg-slate-50 p-3 font-sans text-sm break-words whitespace-pre-wrap text-slate-800"
                        data-testid="outbox-body"
                      >
                        {linkify(m.body).map((part, i) =>
                          part.kind === 'link' ? (
                            <a key={i} href={part.href} target="_blank" rel="noopener noreferrer" className="text-brand-800 underline">
                              {part.text}
                            </a>
                          ) : (
                            <span key={i}>{part.text}</span>
                          ),
                        )}
                      </pre>
                      {m.error && <p className="mt-2 text-sm text-red-700">Delivery failed: {m.error}</p>}
                    </details>
                  </li>
                ))}
              </ul>
              <Pager page={page} pageSize={PAGE_SIZE} total={result.total} onPage={setPage} label="mails" />
            </>
          )}
        </QueryStates>
      </Card>
    </Page>
  );
}
