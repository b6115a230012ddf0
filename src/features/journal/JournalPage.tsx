import { Plus } from 'lucide-react';
import { useState } from 'react';
import { MEAL_KINDS, type MealEntry } from '../../../server/journal/schema';
import { Button } from '../../components/ui/Button';
import { Page } from '../../components/ui/Page';
import { LoadError, Loading } from '../../components/ui/States';
import { useQueued } from '../../lib/offline-queue';
import { useSessionInfo } from '../../lib/use-session';
import type { MealPayload } from '../dashboard/offline/queued';
import { WaitingList } from '../dashboard/offline/WaitingList';
import { JournalDayView } from './JournalDayView';
import { MealForm } from './MealForm';
import { useJournalDay } from './use-journal-day';

/** /dashboard/journal: the client's meal journal, a day at a time, live. */
export function JournalPage() {
  const [date, setDate] = useState<string | undefined>(undefined);
  const { day, reload } = useJournalDay(date);
  const [form, setForm] = useState<{ open: boolean; entry: MealEntry | null }>({ open: false, entry: null });
  const userId = useSessionInfo()?.id ?? null;
  const waiting = useQueued<MealPayload>(userId, 'meal');
  const add = (
    <Button onClick={() => setForm({ open: true, entry: null })} data-testid="add-meal">
      <Plus className="h-5 w-5" aria-hidden="true" />
      Add meal
    </Button>
  );
  return (
    <Page title="Meal journal" lead="What you eat and drink, for your dietitian to see and comment on." width="max-w-5xl">
      {day.isPending ? (
        <Loading label="Loading your journal" />
      ) : day.isError ? (
        <LoadError error={day.error} onRetry={() => void day.refetch()} />
      ) : (
        <>
          {userId !== null && (
            <WaitingList
              userId={userId}
              items={waiting}
              label="Meals waiting to send"
              describe={(p) => `${MEAL_KINDS[p.meal]}: ${p.description ?? (p.items?.length ? `${p.items.length} foods` : 'photos')}`}
            />
          )}
          <JournalDayView
            day={day.data}
            audience="client"
            onSelectDay={setDate}
            onEdit={(entry) => setForm({ open: true, entry })}
            onChanged={reload}
            addButton={add}
          />
          <MealForm
            open={form.open}
            onOpenChange={(open) => setForm((f) => ({ ...f, open }))}
            date={day.data.date}
            today={day.data.today}
            entry={form.entry}
            onSaved={reload}
            showNumbers={day.data.showNumbers}
            targets={day.data.targets}
          />
        </>
      )}
    </Page>
  );
}
