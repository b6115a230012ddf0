import { UtensilsCrossed } from 'lucide-react';
import type { JournalAdherence as Adherence } from '../../../server/journal/schema';
import { formatFollowUpDay } from '../../lib/use-live-reload';

/** The follow-up queue's line about a client's meal journal: days logged of the last 7, the last day logged, and the week's protein and energy against targets. */
export function JournalAdherence({ journal }: { journal: Adherence }) {
  const tone = journal.daysLogged >= 5 ? 'text-emerald-800' : journal.daysLogged >= 3 ? 'text-amber-800' : 'text-red-800';
  return (
    <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600" data-testid="follow-up-journal">
      <UtensilsCrossed className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        Journal: <span className={`font-semibold ${tone}`}>{journal.daysLogged} of 7 days</span>
        {journal.lastLogged ? ` · last ${formatFollowUpDay(journal.lastLogged)}` : ' · nothing logged yet'}
        {journal.intake && <IntakeWords intake={journal.intake} />}
      </span>
    </p>
  );
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** " · protein 72 % of target, energy 95 % (5 days with foods)". */
function IntakeWords({ intake }: { intake: NonNullable<Adherence['intake']> }) {
  const parts = [
    intake.proteinShare !== null ? `protein ${percent(intake.proteinShare)} of target` : null,
    intake.energyShare !== null ? `energy ${percent(intake.energyShare)}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  const days = `${intake.daysWithFoods} ${intake.daysWithFoods === 1 ? 'day' : 'days'} with foods`;
  return <span data-testid="follow-up-intake">{` · ${parts.join(', ')} (${days})`}</span>;
}
