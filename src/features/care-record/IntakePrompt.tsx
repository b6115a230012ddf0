import { useQuery } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { useTRPC } from '../../lib/trpc';

/** Above every dashboard page until the intake questionnaire is finished (not on the questionnaire itself). */
export function IntakePrompt() {
  const trpc = useTRPC();
  const [location] = useLocation();
  const intake = useQuery(trpc.careRecord.intake.get.queryOptions({}));
  if (!intake.data || intake.data.state === 'done' || location.startsWith('/intake')) return null;
  const started = intake.data.state === 'in-progress';
  return (
    <aside
      className="mb-5 flex flex-col gap-3 rounded-2xl border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900 sm:flex-row sm:items-center sm:justify-between sm:px-5"
      aria-label="Intake questionnaire"
      data-testid="intake-prompt"
      // Steps aside on a phone while a message is written (messages/use-fill-viewport.ts): room for the chat above the keyboard.
      data-composing-aside=""
    >
      <p className="flex items-start gap-3">
        <ClipboardList className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
        <span>
          <strong className="font-semibold">{started ? 'Finish telling us about you.' : 'Tell us about you.'}</strong> Your dietitian needs
          your health, food and routine to write your plan.
        </span>
      </p>
      <Link href="/intake" className={buttonClasses('primary', 'sm', 'shrink-0 self-start sm:self-auto')}>
        {started ? 'Continue' : 'Start the questionnaire'}
      </Link>
    </aside>
  );
}
