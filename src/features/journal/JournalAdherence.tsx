import { UtensilsCrossed } from 'lucide-react';
import type { JournalAdherence as Adherence } from '../../../server/journal/schema';
import { formatFollowUpDay } from '../../lib/use-live-reload';

/** The follow-up queue's line about a client's meal journal: days logged of the last 7, and the last day logged. */
export function JournalAdherence({ journal }: { journal: Adherence }) {
  const tone = journal.daysLogged >= 5 ? 'text-emerald-800' : journal.daysLogged >= 3 ? 'text-amber-800' : 'text-red-800';
  return (
    <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600" data-testid="follow-up-journal">
      <UtensilsCrossed className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        Journal: <span className={`font-semibold ${tone}`}>{journal.daysLogged} of 7 days</span>
        {journal.lastLogged ? ` · last ${formatFollowUpDay(journal.lastLogged)}` : ' · nothing logged yet'}
      </span>
    </p>
  );
}
