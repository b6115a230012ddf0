import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Search, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { formatDay, formatPhone } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { Badge, EmptyState, LoadError, Loading, Page, Pager, Segmented, Table, td, th } from '../ui';
import { useDebounced } from '../use-debounced';

const PAGE_SIZE = 25;
const STATUSES = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Deactivated' },
] as const;

export function ClientsPage() {
  const trpc = useTRPC();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<'all' | 'active' | 'inactive'>('all');
  const [page, setPage] = useState(0);
  const search = useDebounced(q.trim());
  const list = useQuery({
    ...trpc.admin.clients.list.queryOptions({ q: search || undefined, status, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  return (
    <Page
      title="Clients"
      lead="Search by the start of a name, email or phone number."
      actions={
        <Link href="/clients/new" className={buttonClasses('primary')}>
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          Add client
        </Link>
      }
    >
      <Card>
        <div className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="relative w-full sm:max-w-sm">
            <TextField
              label="Search clients"
              hideLabel
              type="search"
              placeholder="Search name, email or phone"
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                setPage(0);
              }}
              className="pl-9"
            />
            <Search className="pointer-events-none absolute top-3 left-3 h-4 w-4 text-slate-500" aria-hidden="true" />
          </div>
          <Segmented
            label="Account status"
            value={status}
            options={STATUSES}
            onChange={(s) => {
              setStatus(s);
              setPage(0);
            }}
          />
        </div>
        {list.isPending ? (
          <Loading label="Loading clients" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState Icon={Users} testId="clients-empty">
            {search ? `No client starts with “${search}”.` : 'No clients yet. Add the first one.'}
          </EmptyState>
        ) : (
          <>
            <Table label="Clients">
              <thead>
                <tr>
                  <th className={th}>Name</th>
                  <th className={th}>Email</th>
                  <th className={th}>Phone</th>
                  <th className={th}>Status</th>
                  <th className={th}>Added</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100" data-testid="clients-rows">
                {list.data.items.map((c) => (
                  <tr key={c.id} className="hover:bg-slate-50">
                    <td className={td}>
                      <Link href={`/clients/${c.id}`} className="font-semibold text-brand-800 hover:underline">
                        {c.fullName}
                      </Link>
                    </td>
                    <td className={td} data-label="Email">
                      {c.email}
                    </td>
                    <td className={`${td} whitespace-nowrap`} data-label="Phone">
                      {c.phone ? formatPhone(c.phone) : '—'}
                    </td>
                    <td className={td} data-label="Status">
                      <span className="flex flex-wrap gap-1">
                        {c.isActive ? <Badge tone="green">Active</Badge> : <Badge tone="red">Deactivated</Badge>}
                        {!c.hasPassword && <Badge tone="amber">Invited</Badge>}
                      </span>
                    </td>
                    <td className={td} data-label="Added">
                      {formatDay(c.createdAt.toISOString().slice(0, 10))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} label="clients" />
          </>
        )}
      </Card>
    </Page>
  );
}
