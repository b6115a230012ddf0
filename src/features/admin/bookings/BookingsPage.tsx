import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import {
  BOOKING_STATUS_LABELS,
  BOOKING_TRANSITIONS,
  type BookingStatus,
  CONVERTIBLE,
  consultationClock,
  consultationWhen,
} from '../../../../server/consultation/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField } from '../../../components/ui/Field';
import { toastError } from '../../../lib/notify';
import type { RouterOutputs } from '../../../lib/router-types';
import { useTRPC } from '../../../lib/trpc';
import { formatPhone } from '../../../lib/format';
import { formatMoment } from '../format';
import { Badge, EmptyState, Facts, FilteredCardList, Page, type Tone, useFilteredPages } from '../ui';

type Booking = RouterOutputs['admin']['bookings']['list']['items'][number];

const PAGE_SIZE = 10;
const FILTERS = [
  { value: 'new', label: 'New' },
  { value: 'contacted', label: 'Contacted' },
  { value: 'converted', label: 'Converted' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
] as const;
const TONE: Record<BookingStatus, Tone> = { new: 'blue', contacted: 'amber', converted: 'green', closed: 'slate' };

export function BookingsPage() {
  const trpc = useTRPC();
  const pages = useFilteredPages<'all' | BookingStatus>('new');
  const status = pages.filter;
  const list = useQuery({
    ...trpc.admin.bookings.list.queryOptions({ status, page: pages.page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Bookings" lead="Free consultation requests: call them, then convert them into clients or close them.">
      <FilteredCardList
        filterLabel="Booking status"
        filters={FILTERS}
        pages={pages}
        query={list}
        loadingLabel="Loading bookings"
        empty={
          <EmptyState Icon={CalendarClock}>
            No {status === 'all' ? '' : `${BOOKING_STATUS_LABELS[status].toLowerCase()} `}bookings.
          </EmptyState>
        }
        testId="bookings-list"
        pageSize={PAGE_SIZE}
        pagerLabel="bookings"
      >
        {(b) => <BookingCard key={b.id} booking={b} />}
      </FilteredCardList>
    </Page>
  );
}

/** The time the visitor picked: booked, held until they confirm it, or lapsed (they call instead). */
function PickedTime({ time }: { time: Booking['time'] }) {
  if (!time) return <span className="text-slate-600">None picked: call them back</span>;
  const when = consultationWhen(time.start, time.timeZone, 'visitor’s time');
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="booking-time">
      {time.state === 'booked' && <Badge tone="green">Booked</Badge>}
      {time.state === 'held' && <Badge tone="amber">Held</Badge>}
      {time.state === 'lapsed' && <Badge tone="slate">Not confirmed</Badge>}
      <span>{when}</span>
      {time.state === 'held' && time.until && (
        <span className="text-sm text-slate-600">
          until {consultationClock(time.until)}, unless confirmed; marking the booking contacted books it
        </span>
      )}
      {time.state === 'lapsed' && <span className="text-sm text-slate-600">released: agree a time with them</span>}
    </span>
  );
}

function BookingCard({ booking: b }: { booking: Booking }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const update = useMutation(trpc.admin.bookings.update.mutationOptions());
  const [notes, setNotes] = useState(b.notes ?? '');

  const save = async (input: { status?: BookingStatus; notes?: string }) => {
    try {
      const answer = await overlay.run(update.mutateAsync({ id: b.id, ...input }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          {b.name}
          <Badge tone={TONE[b.status]}>{BOOKING_STATUS_LABELS[b.status]}</Badge>
          {b.possibleDuplicateOf !== null && (
            <span data-testid="booking-possible-duplicate">
              <Badge tone="amber">{`Possible duplicate of #${b.possibleDuplicateOf}`}</Badge>
            </span>
          )}
        </span>
      }
      actions={
        <span className="text-sm text-slate-500">
          #{b.id} · {formatMoment(b.createdAt)}
        </span>
      }
    >
      <div className="flex flex-col gap-4 p-4 sm:p-5" data-testid="booking">
        <Facts
          items={[
            [
              'Email',
              <a key="e" href={`mailto:${b.email}`} className="text-brand-800 hover:underline">
                {b.email}
              </a>,
            ],
            [
              'Contact',
              <a key="c" href={`tel:${formatPhone(b.contact).replace(/\s/g, '')}`} className="text-brand-800 hover:underline">
                {formatPhone(b.contact)}
              </a>,
            ],
            ['Gender', b.genderLabel],
            ['Age', b.age],
            ['Height (ft)', b.height],
            ['Weight', `${b.weight} kg`],
            ['State', b.state],
            ['Country', b.country.name],
            ['Medical condition', b.isMedicalCondition ? 'Yes' : 'No'],
            ['Consultation time', <PickedTime key="t" time={b.time} />],
            [
              'Client',
              b.clientId ? (
                <Link key="l" href={`/clients/${b.clientId}`} className="text-brand-800 hover:underline">
                  Open client #{b.clientId}
                </Link>
              ) : null,
            ],
          ]}
        />
        <TextAreaField
          label="Notes"
          rows={2}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          placeholder="What was discussed, when to call back…"
        />
        <div className="flex flex-wrap items-center justify-end gap-2">
          {notes !== (b.notes ?? '') && (
            <Button variant="secondary" size="sm" onClick={() => void save({ notes })}>
              Save notes
            </Button>
          )}
          {BOOKING_TRANSITIONS[b.status].map((next) => (
            <Button key={next} variant={next === 'closed' ? 'ghost' : 'secondary'} size="sm" onClick={() => void save({ status: next })}>
              {next === 'contacted' && b.status === 'closed' ? 'Reopen' : `Mark ${BOOKING_STATUS_LABELS[next].toLowerCase()}`}
            </Button>
          ))}
          {CONVERTIBLE.includes(b.status) && (
            <Link href={`/clients/new?booking=${b.id}`} className={buttonClasses('primary', 'sm')}>
              <UserPlus className="h-4 w-4" aria-hidden="true" />
              Convert to client
            </Link>
          )}
        </div>
      </div>
    </Card>
  );
}
