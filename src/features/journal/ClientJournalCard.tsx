import { useState } from 'react';
import { Card } from '../../components/ui/Card';
import { LoadError, Loading } from '../../components/ui/States';
import { JournalDayView } from './JournalDayView';
import { useJournalDay } from './use-journal-day';

/** The console's view of a client's journal (on the client's page): live, with marks and comments. */
export function ClientJournalCard({ clientId }: { clientId: number }) {
  const [date, setDate] = useState<string | undefined>(undefined);
  const { day, reload } = useJournalDay(date, clientId);
  return (
    <Card title="Meal journal" className="lg:col-span-2">
      <div className="p-4 sm:p-5" data-testid="client-journal">
        {day.isPending ? (
          <Loading label="Loading the journal" />
        ) : day.isError ? (
          <LoadError error={day.error} onRetry={() => void day.refetch()} />
        ) : (
          <JournalDayView day={day.data} audience="dietitian" onSelectDay={setDate} onChanged={reload} />
        )}
      </div>
    </Card>
  );
}
