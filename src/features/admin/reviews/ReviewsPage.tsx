import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Star } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import { MIN_PUBLISHED_TESTIMONIALS } from '../../../../server/rating/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { formatMoment } from '../format';
import { Badge, EmptyState, Page, Pager, QueryStates, Segmented } from '../ui';

const PAGE_SIZE = 25;
const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'unpublished', label: 'Not published' },
  { value: 'published', label: 'Published' },
] as const;

function Stars({ value }: { value: number }) {
  return (
    <span className="inline-flex items-center gap-0.5" role="img" aria-label={`${value} of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          className={`h-4 w-4 ${value >= n ? 'fill-amber-400 text-amber-500' : value >= n - 0.5 ? 'fill-amber-200 text-amber-500' : 'text-slate-300'}`}
          aria-hidden="true"
        />
      ))}
      <span className="ml-1 text-sm font-semibold text-slate-700">{value}</span>
    </span>
  );
}

export function ReviewsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [filter, setFilter] = useState<'all' | 'published' | 'unpublished'>('all');
  const [page, setPage] = useState(0);
  const list = useQuery({
    ...trpc.admin.reviews.list.queryOptions({ filter, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const published = useQuery(trpc.admin.reviews.list.queryOptions({ filter: 'published', page: 0, pageSize: 10 }));
  const setPublished = useMutation(trpc.admin.reviews.setPublished.mutationOptions());

  const toggle = async (id: number, next: boolean) => {
    try {
      const answer = await overlay.run(setPublished.mutateAsync({ id, published: next }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
    } catch (error) {
      toastError(error);
    }
  };

  const count = published.data?.total ?? 0;
  return (
    <Page title="Reviews" lead="Choose which reviews appear on the home page, with the client's first name and the month.">
      <p className="mb-4 rounded-xl bg-brand-50 p-3 text-sm text-brand-900" data-testid="testimonial-status">
        {count >= MIN_PUBLISHED_TESTIMONIALS
          ? `${count} published: the home page shows them instead of its sample testimonials.`
          : `${count} published. The home page switches to real reviews once ${MIN_PUBLISHED_TESTIMONIALS} are published.`}
      </p>
      <Card>
        <div className="border-b border-slate-100 p-4">
          <Segmented
            label="Which reviews"
            value={filter}
            options={FILTERS}
            onChange={(f) => {
              setFilter(f);
              setPage(0);
            }}
          />
        </div>
        <QueryStates query={list} loadingLabel="Loading reviews" empty={<EmptyState Icon={Star}>No reviews here.</EmptyState>}>
          {(result) => (
            <>
              <ul className="divide-y divide-slate-100" data-testid="reviews-list">
                {result.items.map((r) => (
                  <li key={r.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
                    <div className="min-w-0">
                      <div className="flex flex-wrap items-center gap-2">
                        <Stars value={r.stars} />
                        <Link href={`/clients/${r.client.id}`} className="font-semibold text-brand-800 hover:underline">
                          {r.client.fullName}
                        </Link>
                        {r.isPublished && <Badge tone="teal">On the home page</Badge>}
                      </div>
                      <p className="mt-1 text-slate-800">
                        {r.comment || <em className="text-slate-500">No comment (cannot be published).</em>}
                      </p>
                      <p className="mt-1 text-xs text-slate-500">{formatMoment(r.createdAt)}</p>
                    </div>
                    <Button
                      size="sm"
                      variant={r.isPublished ? 'secondary' : 'primary'}
                      disabled={!r.isPublished && !r.comment}
                      onClick={() => void toggle(r.id, !r.isPublished)}
                      className="shrink-0 self-start"
                    >
                      {r.isPublished ? 'Unpublish' : 'Publish'}
                    </Button>
                  </li>
                ))}
              </ul>
              <Pager page={page} pageSize={PAGE_SIZE} total={result.total} onPage={setPage} label="reviews" />
            </>
          )}
        </QueryStates>
      </Card>
    </Page>
  );
}
