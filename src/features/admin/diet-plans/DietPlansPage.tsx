import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FilePlus2, FileText } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { useTRPC } from '../../../lib/trpc';
import { EmptyState, LoadError, Loading, Page, Pager } from '../ui';
import { DietPlanTable } from './DietPlanTable';

const PAGE_SIZE = 25;

export function DietPlansPage() {
  const trpc = useTRPC();
  const [page, setPage] = useState(0);
  const list = useQuery({ ...trpc.admin.dietPlans.list.queryOptions({ page, pageSize: PAGE_SIZE }), placeholderData: keepPreviousData });
  return (
    <Page
      title="Diet plans"
      lead="Every client's plans, newest first. Open a client to see theirs."
      actions={
        <Link href="/diet-plans/new" className={buttonClasses('primary')}>
          <FilePlus2 className="h-4 w-4" aria-hidden="true" />
          New plan
        </Link>
      }
    >
      <Card>
        {list.isPending ? (
          <Loading label="Loading plans" />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState Icon={FileText}>No diet plans yet.</EmptyState>
        ) : (
          <>
            <DietPlanTable items={list.data.items} />
            <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} label="plans" />
          </>
        )}
      </Card>
    </Page>
  );
}
