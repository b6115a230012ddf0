import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CreditCard, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { useTRPC } from '../../../lib/trpc';
import { EmptyState, LoadError, Loading, Page, Pager, Segmented } from '../ui';
import { AssignSubscriptionDialog } from './AssignSubscriptionDialog';
import { SubscriptionTable } from './SubscriptionTable';

const PAGE_SIZE = 25;
const STATES = [
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Ended' },
  { value: 'all', label: 'All' },
] as const;

export function SubscriptionsPage() {
  const trpc = useTRPC();
  const [state, setState] = useState<'all' | 'active' | 'expired'>('active');
  const [page, setPage] = useState(0);
  const [assigning, setAssigning] = useState(false);
  const list = useQuery({
    ...trpc.admin.subscriptions.list.queryOptions({ state, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page
      title="Subscriptions"
      lead="Plans from the catalogue, with what each client paid."
      actions={
        <Button onClick={() => setAssigning(true)}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          Assign a plan
        </Button>
      }
    >
      <Card>
        <div className="border-b border-slate-100 p-4">
          <Segmented
            label="Which subscriptions"
            value={state}
            options={STATES}
            onChange={(s) => {
              setState(s);
              setPage(0);
            }}
          />
        </div>
        {list.isPending ? (
          <Loading label="Loading subscriptions" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState Icon={CreditCard}>No subscriptions here.</EmptyState>
        ) : (
          <>
            <SubscriptionTable items={list.data.items} />
            <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} label="subscriptions" />
          </>
        )}
      </Card>
      <AssignSubscriptionDialog open={assigning} onOpenChange={setAssigning} />
    </Page>
  );
}
