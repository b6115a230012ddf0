import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Info, MessageCircle, Search, Settings } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link, Redirect, useParams, useSearch } from 'wouter';
import type { InboxFilter } from '../../../../server/messages/schema';
import { INBOX_FILTERS } from '../../../../server/messages/schema';
import { buttonClasses } from '../../../components/ui/Button';
import { relativeTime } from '../../../lib/relative-time';
import { useTRPC } from '../../../lib/trpc';
import { useSessionInfo } from '../../../lib/use-session';
import { ConversationView } from '../../messages/ConversationView';
import { useConversation } from '../../messages/use-conversation';
import { useLiveConversation } from '../../messages/use-live-conversation';
import { useFillViewport } from '../../messages/use-fill-viewport';
import { fillPlaceholders } from './placeholders';
import { EmptyState, LoadError, Loading, Page, Pager, Segmented } from '../ui';
import { useDebounced } from '../use-debounced';
import { ConversationPanel } from './ConversationPanel';
import { SavedReplyPicker } from './SavedReplyPicker';

const FILTER_OPTIONS = (Object.keys(INBOX_FILTERS) as InboxFilter[]).map((value) => ({ value, label: INBOX_FILTERS[value] }));
const PAGE_SIZE = 25;
/**
 * Below the title the list, the open conversation and its panel share the screen's height (measured,
 * see use-fill-viewport.ts; this CSS holds until then). On a phone one of them fills it at a time.
 */
const PANE_HEIGHT = 'h-[calc(100dvh-12rem)] lg:h-[calc(100dvh-13rem)]';

/**
 * /admin/messages and /admin/messages/:id: every conversation, newest first,
 * with Unread / Waiting for us / All and a search over client names and
 * message text; the open conversation beside it with what a dietitian needs to
 * answer (latest check-in, weights, plan, subscription). On a phone the list
 * and the open conversation are separate screens.
 */
export function MessagesInboxPage() {
  const params = useParams<{ id?: string }>();
  const openId = params.id ? Number(params.id) : null;
  // The unread-message mail links to /admin/messages?conversation=<id>.
  const linked = new URLSearchParams(useSearch()).get('conversation');
  const panes = useRef<HTMLDivElement>(null);
  const height = useFillViewport(panes, [openId]);
  if (!params.id && linked && /^\d+$/.test(linked)) return <Redirect to={`/messages/${linked}`} replace />;
  return (
    <Page
      title="Messages"
      lead={<span className="hidden sm:inline">Conversations with clients. Anyone on the care team can read and answer.</span>}
      actions={
        <Link href="/messages/settings" className={buttonClasses('ghost', 'sm', 'min-h-11')}>
          <Settings className="h-4 w-4" aria-hidden="true" />
          <span className="hidden sm:inline">Saved replies and office hours</span>
          <span className="sm:hidden">Settings</span>
        </Link>
      }
      width="max-w-none"
    >
      <div
        ref={panes}
        style={height === null ? undefined : { height }}
        className={`grid min-h-0 grid-cols-1 grid-rows-[minmax(0,1fr)] gap-4 lg:grid-cols-[20rem_minmax(0,1fr)_17rem] ${PANE_HEIGHT}`}
        data-testid="inbox-panes"
      >
        <div className={`${openId ? 'hidden lg:flex' : 'flex'} min-h-0 min-w-0 flex-col`}>
          <InboxList openId={openId} />
        </div>
        {openId && Number.isInteger(openId) ? (
          <OpenConversation key={openId} conversationId={openId} />
        ) : (
          <div className="hidden items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white lg:col-span-2 lg:flex">
            <EmptyState Icon={MessageCircle}>Choose a conversation to read and answer it.</EmptyState>
          </div>
        )}
      </div>
    </Page>
  );
}

function InboxList({ openId }: { openId: number | null }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<InboxFilter>('all');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const search = useDebounced(q.trim(), 300);
  const inbox = useQuery({
    ...trpc.admin.messages.inbox.queryOptions({ filter, q: search || undefined, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <section
      aria-label="Conversations"
      className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white"
    >
      <div className="flex flex-col gap-2 border-b border-slate-100 p-3">
        <Segmented
          label="Show"
          value={filter}
          options={FILTER_OPTIONS}
          onChange={(v) => {
            setFilter(v);
            setPage(0);
          }}
        />
        <label className="relative block">
          <span className="sr-only">Search by client name or message text</span>
          <Search className="pointer-events-none absolute top-2.5 left-2.5 h-4 w-4 text-slate-500" aria-hidden="true" />
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(0);
            }}
            placeholder="Search names and messages"
            className="h-10 w-full rounded-lg border border-slate-300 pr-3 pl-8 text-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none"
          />
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {inbox.isPending ? (
          <Loading label="Loading conversations" />
        ) : inbox.isError ? (
          <LoadError error={inbox.error} onRetry={() => void inbox.refetch()} />
        ) : inbox.data.items.length === 0 ? (
          <EmptyState Icon={MessageCircle} testId="inbox-empty">
            {search
              ? 'No conversation matches that search.'
              : filter === 'all'
                ? 'No conversations yet.'
                : 'Nothing here: every conversation is answered.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="inbox-list">
            {inbox.data.items.map((row) => {
              const current = row.id === openId;
              const preview = row.match?.text ?? row.lastMessage?.text ?? 'No messages yet';
              return (
                <li key={row.id}>
                  <Link
                    href={`/messages/${row.id}`}
                    aria-current={current ? 'page' : undefined}
                    className={`flex flex-col gap-0.5 px-3 py-2.5 hover:bg-slate-50 ${current ? 'bg-brand-50' : ''}`}
                    data-testid="inbox-row"
                    data-unread={row.unread}
                  >
                    <span className="flex items-center gap-2">
                      <span
                        className={`min-w-0 flex-1 truncate text-sm ${row.unread > 0 ? 'font-bold text-slate-900' : 'font-semibold text-slate-800'}`}
                      >
                        {row.client.name}
                      </span>
                      {row.lastMessage && <span className="shrink-0 text-xs text-slate-500">{relativeTime(row.lastMessage.sentAt)}</span>}
                    </span>
                    <span className="flex items-center gap-2">
                      <span className="min-w-0 flex-1 truncate text-sm text-slate-600">
                        {row.lastMessage?.senderRole === 'dietitian' && !row.match ? 'You: ' : ''}
                        {preview}
                      </span>
                      {row.unread > 0 && (
                        <span className="min-w-5 rounded-full bg-red-600 px-1.5 text-center text-xs leading-5 font-bold text-white">
                          <span className="sr-only">Unread: </span>
                          {row.unread}
                        </span>
                      )}
                      {row.waitingForUs && row.unread === 0 && (
                        <span className="shrink-0 rounded-full bg-amber-50 px-2 text-xs font-semibold text-amber-800 ring-1 ring-amber-200">
                          Waiting
                        </span>
                      )}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {inbox.data && inbox.data.total > PAGE_SIZE && (
        <Pager page={page} pageSize={PAGE_SIZE} total={inbox.data.total} onPage={setPage} label="conversations" />
      )}
    </section>
  );
}

function OpenConversation({ conversationId }: { conversationId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const viewerId = useSessionInfo()?.id ?? 0;
  const [insert, setInsert] = useState<{ text: string; nonce: number } | null>(null);
  const panel = useQuery(trpc.admin.messages.panel.queryOptions({ conversationId }));
  const conversation = useConversation(conversationId, viewerId, {
    onRead: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.admin.messages.inbox.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() });
    },
  });
  const live = useLiveConversation(conversation);
  const client = panel.data?.conversation.client;
  // On a phone the client's details take the conversation's place when asked for; beside it from 1024 px.
  const [aboutOpen, setAboutOpen] = useState(false);
  return (
    <>
      {/* min-w-0: a grid item otherwise grows to its widest content (a long link), wider than a phone. */}
      <div className={`${aboutOpen ? 'hidden lg:flex' : 'flex'} min-h-0 min-w-0 flex-col gap-2`}>
        <div className="flex items-center gap-1.5 sm:gap-2">
          <Link
            href="/messages"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 lg:hidden"
            aria-label="Back to conversations"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <h2 className="min-w-0 flex-1 truncate text-lg font-bold text-slate-900" data-testid="conversation-title">
            {client ? client.name : panel.isError ? 'Conversation' : 'Loading…'}
          </h2>
          <button
            type="button"
            onClick={() => setAboutOpen(true)}
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 lg:hidden"
            aria-label="About this client"
          >
            <Info className="h-5 w-5" aria-hidden="true" />
          </button>
          <SavedReplyPicker
            onPick={(text) =>
              setInsert({
                text: fillPlaceholders(text, { firstName: client?.firstName ?? null, fullName: client?.name ?? null }),
                nonce: Date.now(),
              })
            }
          />
        </div>
        <ConversationView
          conversation={conversation}
          activity={live.activity}
          onTyping={live.onTyping}
          isOwn={(m) => m.sender.role !== 'client'}
          emptyText="No messages yet. Write the first one."
          composerDisabledReason={client && !client.active ? 'This client is deactivated.' : null}
          insert={insert}
          className="min-h-0 flex-1"
        />
      </div>
      <div className={`${aboutOpen ? 'flex' : 'hidden lg:flex'} min-h-0 min-w-0 flex-col gap-2`}>
        <button
          type="button"
          onClick={() => setAboutOpen(false)}
          className="flex min-h-11 items-center gap-1.5 self-start rounded-lg px-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 lg:hidden"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to the conversation
        </button>
        <ConversationPanel query={panel} />
      </div>
    </>
  );
}
