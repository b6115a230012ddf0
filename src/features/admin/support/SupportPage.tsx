import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LifeBuoy, Reply } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import { replyForm } from '../../../../server/support/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField } from '../../../components/ui/Field';
import { fieldErrors } from '../../../lib/errors';
import type { RouterOutputs } from '../../../lib/router-types';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { formatMoment } from '../format';
import { Badge, EmptyState, FilteredCardList, Page, useFilteredPages } from '../ui';

const PAGE_SIZE = 10;
const FILTERS = [
  { value: 'open', label: 'Open' },
  { value: 'answered', label: 'Answered' },
  { value: 'all', label: 'All' },
] as const;

type Request = RouterOutputs['admin']['support']['list']['items'][number];

export function SupportPage() {
  const trpc = useTRPC();
  const pages = useFilteredPages<'open' | 'answered' | 'all'>('open');
  const list = useQuery({
    ...trpc.admin.support.list.queryOptions({ status: pages.filter, page: pages.page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Support" lead="Messages from the Contact Us form. Open ones are listed oldest first." width="max-w-4xl">
      <FilteredCardList
        filterLabel="Request status"
        filters={FILTERS}
        pages={pages}
        query={list}
        loadingLabel="Loading requests"
        empty={
          <EmptyState Icon={LifeBuoy}>
            {pages.filter === 'open' ? 'Inbox zero: nothing waiting for an answer.' : 'No requests here.'}
          </EmptyState>
        }
        testId="support-list"
        pageSize={PAGE_SIZE}
        pagerLabel="requests"
      >
        {(r) => <RequestCard key={r.id} request={r} />}
      </FilteredCardList>
    </Page>
  );
}

function RequestCard({ request: r }: { request: Request }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const reply = useMutation(trpc.admin.support.reply.mutationOptions());
  const setStatus = useMutation(trpc.admin.support.setStatus.mutationOptions());
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  /** One error per failure: a reply the server refused is shown under the reply field, anything else as a toast. */
  const done = async (work: Promise<{ message: string }>, onOk?: () => void) => {
    try {
      const answer = await overlay.run(work);
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      setError(undefined);
      onOk?.();
    } catch (e) {
      const replyError = fieldErrors(e).reply?.[0];
      if (replyError) setError(replyError);
      else toastError(e);
    }
  };

  const onSendReply = () => {
    // The server's rule, checked here first: an empty reply gets one message, under the field, and no request.
    const checked = replyForm.safeParse({ reply: text });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    void done(reply.mutateAsync({ id: r.id, reply: checked.data.reply }), () => setReplying(false));
  };

  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          {r.name}
          {r.status === 'open' ? <Badge tone="amber">Open</Badge> : <Badge tone="green">Answered</Badge>}
          {r.userId && (
            <Link href={`/clients/${r.userId}`} className="text-sm font-normal text-brand-800 hover:underline">
              client #{r.userId}
            </Link>
          )}
        </span>
      }
      actions={<span className="text-sm text-slate-500">{formatMoment(r.createdAt)}</span>}
    >
      <div className="flex flex-col gap-3 p-4 sm:p-5" data-testid="support-request">
        <a href={`mailto:${r.email}`} className="self-start text-sm text-brand-800 hover:underline">
          {r.email}
        </a>
        <p className="whitespace-pre-line text-slate-800">{r.message}</p>
        {r.reply && (
          <blockquote className="rounded-xl border-l-4 border-brand-300 bg-brand-50 p-3 text-sm text-slate-800">
            <p className="whitespace-pre-line">{r.reply}</p>
            <footer className="mt-1 text-xs text-slate-600">
              {r.answeredBy ?? 'A dietitian'} · {formatMoment(r.answeredAt)}
            </footer>
          </blockquote>
        )}
        {replying ? (
          <div className="flex flex-col gap-2">
            <TextAreaField
              label={`Reply to ${r.name} (sent by email)`}
              rows={4}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setError(undefined);
              }}
              error={error}
            />
            <div className="flex justify-end gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setReplying(false);
                  setError(undefined);
                }}
              >
                Cancel
              </Button>
              <Button size="sm" onClick={onSendReply}>
                Send reply
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            {r.status === 'open' ? (
              <>
                <Button variant="ghost" size="sm" onClick={() => void done(setStatus.mutateAsync({ id: r.id, status: 'answered' }))}>
                  Mark answered
                </Button>
                <Button size="sm" onClick={() => setReplying(true)}>
                  <Reply className="h-4 w-4" aria-hidden="true" />
                  Reply
                </Button>
              </>
            ) : (
              <Button variant="ghost" size="sm" onClick={() => void done(setStatus.mutateAsync({ id: r.id, status: 'open' }))}>
                Reopen
              </Button>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
