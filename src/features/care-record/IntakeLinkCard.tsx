import { useQuery } from '@tanstack/react-query';
import { ClipboardList } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { useTRPC } from '../../lib/trpc';

/** On the profile: the intake questionnaire, to finish or to edit. */
export function IntakeLinkCard() {
  const trpc = useTRPC();
  const intake = useQuery(trpc.careRecord.intake.get.queryOptions({}));
  const done = intake.data?.state === 'done';
  return (
    <Card title="Intake questionnaire">
      <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <p className="flex items-start gap-3 text-slate-700">
          <ClipboardList className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          {done
            ? 'Your health, food and routine as your dietitian reads them. Keep them up to date.'
            : 'Not finished yet: your dietitian needs it to write your plan.'}
        </p>
        <Link href="/intake" className={buttonClasses(done ? 'secondary' : 'primary', 'sm', 'shrink-0 self-start sm:self-auto')}>
          {done ? 'Edit answers' : 'Continue'}
        </Link>
      </div>
    </Card>
  );
}
