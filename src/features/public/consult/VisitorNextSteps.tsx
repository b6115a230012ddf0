import { Clock } from 'lucide-react';
import type { VisitorWords } from '../../../../server/consultation/schema';

/**
 * A visitor's request as one of its states says it (visitorWords): what happened, the time when there is
 * one, and what happens next. The mail for the same state is written from the same words.
 */
export function VisitorNextSteps({ words, when, testId }: { words: VisitorWords; when?: string; testId?: string }) {
  return (
    <div className="flex flex-col gap-4" data-testid={testId}>
      <p className="text-slate-700" data-testid="visitor-lead">
        {words.lead}
      </p>
      {when && (
        <p className="flex items-start gap-3 rounded-xl bg-brand-50 p-4 font-semibold text-brand-900" data-testid="visitor-time">
          <Clock className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <span>{when}</span>
        </p>
      )}
      <div>
        <h3 className="font-bold text-slate-900">What happens next</h3>
        <ol className="mt-2 flex list-decimal flex-col gap-2 pl-5 text-slate-700" data-testid="visitor-steps">
          {words.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}
