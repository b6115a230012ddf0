import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import { useState } from 'react';
import { Card } from '../../../components/ui/Card';
import { SelectField } from '../../../components/ui/Field';
import { useTRPC } from '../../../lib/trpc';
import { formatMoment } from '../format';
import { EmptyState, Page, Pager, QueryStates, Table, td, th } from '../ui';

const PAGE_SIZE = 50;
const ENTITIES = [
  { value: '', label: 'Everything' },
  { value: 'client', label: 'Clients' },
  { value: 'diet_plan', label: 'Diet plans' },
  { value: 'subscription', label: 'Subscriptions' },
  { value: 'booking', label: 'Bookings' },
  { value: 'support_request', label: 'Support' },
  { value: 'review', label: 'Reviews' },
  { value: 'feed_post', label: 'Feed posts' },
];

/** Who changed what, and when: every change made in the console. */
export function AuditPage() {
  const trpc = useTRPC();
  const [entity, setEntity] = useState('');
  const [page, setPage] = useState(0);
  const list = useQuery({
    ...trpc.admin.audit.list.queryOptions({ entity: entity || undefined, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Audit log" lead="Every change made in the console: who, what and when.">
      <div className="mb-4 max-w-xs">
        <SelectField
          label="Show"
          value={entity}
          onChange={(e) => {
            setEntity(e.target.value);
            setPage(0);
          }}
        >
          {ENTITIES.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </SelectField>
      </div>
      <Card>
        <QueryStates
          query={list}
          loadingLabel="Loading the audit log"
          empty={<EmptyState Icon={ClipboardList}>Nothing recorded yet.</EmptyState>}
        >
          {(result) => (
            <>
              <Table label="Audit log">
                <thead>
                  <tr>
                    <th className={th}>When</th>
                    <th className={th}>Who</th>
                    <th className={th}>What</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100" data-testid="audit-rows">
                  {result.items.map((a) => (
                    <tr key={a.id}>
                      <td className={`${td} whitespace-nowrap`} data-label="When">
                        {formatMoment(a.createdAt)}
                      </td>
                      <td className={td} data-label="Who">
                        {a.actorEmail}
                      </td>
                      <td className={td} data-label="What">
                        {a.summary}
                        <span className="block font-mono text-xs text-slate-500">{a.action}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
              <Pager page={page} pageSize={PAGE_SIZE} total={result.total} onPage={setPage} label="entries" />
            </>
          )}
        </QueryStates>
      </Card>
    </Page>
  );
}
