import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CloudUpload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  ACTIVITY_LEVELS,
  CONDITIONS,
  DIET_PATTERNS,
  type IntakeAnswers,
  type IntakeField,
  intakeAnswers,
  missingIntakeAnswers,
  REQUIRED_INTAKE,
} from '../../../server/care-record/schema';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field';
import { LoadError, Loading } from '../../components/ui/States';
import { errorMessage, fieldErrors } from '../../lib/errors';
import { toast } from '../../lib/toast';
import type { RouterOutputs } from '../../lib/router-types';
import { useTRPC } from '../../lib/trpc';

/** What the form holds while the client types: text as typed, the conditions ticked. */
type Draft = { [K in IntakeField]: K extends 'conditions' ? string[] : string };

const TEXT_FIELDS = [
  'otherConditions',
  'medicines',
  'allergies',
  'dietPattern',
  'cuisine',
  'typicalDay',
  'activityLevel',
  'sleepHours',
  'goalsInWords',
  'womensHealth',
] as const;

function toDraft(a: IntakeAnswers): Draft {
  const draft = { conditions: [...a.conditions] } as Draft;
  for (const f of TEXT_FIELDS) (draft as Record<string, unknown>)[f] = a[f] === null ? '' : String(a[f]);
  return draft;
}

const fieldSchema = (field: IntakeField) => intakeAnswers.shape[field];

/** The draft as answers to save: each answer that passes its rule, else the one saved before (a bad answer never costs the others). */
function answersToSave(draft: Draft, saved: IntakeAnswers): { answers: IntakeAnswers; errors: Partial<Record<IntakeField, string>> } {
  const answers = { ...saved };
  const errors: Partial<Record<IntakeField, string>> = {};
  for (const field of Object.keys(draft) as IntakeField[]) {
    const raw = draft[field];
    const parsed = fieldSchema(field).safeParse(Array.isArray(raw) ? raw : raw.trim() === '' ? null : raw);
    if (parsed.success) (answers as Record<string, unknown>)[field] = parsed.data;
    else errors[field] = parsed.error.issues[0]?.message ?? 'Check this answer';
  }
  return { answers, errors };
}

export const INTAKE_DONE = 'Thank you! Your dietitian will read your answers before your plan.';

/**
 * The intake questionnaire, saved as the client goes (a moment after each
 * change, and when a field is left), each answer checked with the server's
 * own rule and message. "Finish" also needs the required answers.
 */
export function IntakeForm({ onFinished }: { onFinished?: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const intake = useQuery({ ...trpc.careRecord.intake.get.queryOptions({}), staleTime: 0 });
  // The form starts from the server's answers, not from this device's kept copy (which may predate the last
  // save): online it waits for the fresh read; offline the kept copy is all there is.
  const fresh = intake.isFetchedAfterMount || (typeof navigator !== 'undefined' && !navigator.onLine);
  if (intake.isPending || (!fresh && !intake.isError)) return <Loading label="Loading your questionnaire" />;
  if (intake.isError) return <LoadError error={intake.error} onRetry={() => void intake.refetch()} />;
  return (
    <IntakeFields
      initial={intake.data.answers}
      done={intake.data.state === 'done'}
      onSaved={(data) => queryClient.setQueryData(trpc.careRecord.intake.get.queryKey({}), data)}
      onFinished={onFinished}
    />
  );
}

type SavedIntake = RouterOutputs['careRecord']['intake']['get'];

function IntakeFields({
  initial,
  done,
  onSaved,
  onFinished,
}: {
  initial: IntakeAnswers;
  done: boolean;
  onSaved: (data: SavedIntake) => void;
  onFinished?: () => void;
}) {
  const trpc = useTRPC();
  const save = useMutation(trpc.careRecord.intake.save.mutationOptions());
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [touched, setTouched] = useState<Partial<Record<IntakeField, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  // Only finishing holds the button: an autosave starts when the tap on it takes the focus from a field, and a
  // button disabled between the press and the release never gets the click (the tap would do nothing).
  const [finishing, setFinishing] = useState(false);
  const saved = useRef<IntakeAnswers>(initial);
  const lastSent = useRef(JSON.stringify(initial));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const { errors } = answersToSave(draft, saved.current);

  const flush = async (complete = false) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const { answers } = answersToSave(draft, saved.current);
    const body = JSON.stringify(answers);
    if (!complete && body === lastSent.current) return true;
    setStatus('saving');
    try {
      const result = await save.mutateAsync({ answers, complete: complete || undefined });
      saved.current = result.answers;
      lastSent.current = body;
      setServerErrors({});
      setStatus('saved');
      onSaved(result);
      return true;
    } catch (error) {
      const fe = fieldErrors(error);
      setServerErrors(Object.fromEntries(Object.entries(fe).map(([k, v]) => [k.replace(/^answers\./, ''), v[0] ?? ''])));
      setStatus('failed');
      if (!complete || Object.keys(fe).length === 0) toast.error(errorMessage(error));
      return false;
    }
  };

  // Saves a moment after the last change (and on leaving a field, below).
  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), 800);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [draft]);

  const set = (field: IntakeField, value: string | string[]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setServerErrors((e) => ({ ...e, [field]: '' }));
  };
  const leave = (field: IntakeField) => {
    setTouched((t) => ({ ...t, [field]: true }));
    void flush();
  };
  const errorOf = (field: IntakeField) => serverErrors[field] || (touched[field] ? errors[field] : undefined);

  const finish = async () => {
    const { answers } = answersToSave(draft, saved.current);
    const missing = missingIntakeAnswers(answers);
    if (Object.keys(missing).length > 0 || Object.keys(errors).length > 0) {
      setServerErrors(Object.fromEntries(Object.entries(missing).map(([k, v]) => [k, v[0]!])));
      setTouched(Object.fromEntries(Object.keys(draft).map((k) => [k, true])));
      const first = Object.keys(errors)[0] ?? Object.keys(missing)[0];
      document.getElementById(`intake-${first}`)?.focus();
      return;
    }
    setFinishing(true);
    const finished = await flush(true);
    setFinishing(false);
    if (finished) {
      toast.success(INTAKE_DONE);
      onFinished?.();
    }
  };

  const text = (field: (typeof TEXT_FIELDS)[number], label: string, opts: { rows?: number; hint?: string; placeholder?: string } = {}) => {
    const required = field in REQUIRED_INTAKE;
    const common = {
      id: `intake-${field}`,
      label: (
        <>
          {label}
          {required ? <span className="text-red-700"> *</span> : <span className="font-normal text-slate-500"> (optional)</span>}
        </>
      ),
      value: draft[field],
      error: errorOf(field),
      hint: opts.hint,
      placeholder: opts.placeholder,
      onBlur: () => leave(field),
    };
    return opts.rows ? (
      <TextAreaField {...common} rows={opts.rows} onChange={(e) => set(field, e.target.value)} />
    ) : (
      <TextField {...common} onChange={(e) => set(field, e.target.value)} />
    );
  };
  const select = (field: 'dietPattern' | 'activityLevel', label: string, options: Record<string, string>) => (
    <SelectField
      id={`intake-${field}`}
      label={
        <>
          {label}
          <span className="text-red-700"> *</span>
        </>
      }
      value={draft[field]}
      error={errorOf(field)}
      onChange={(e) => {
        set(field, e.target.value);
        setTouched((t) => ({ ...t, [field]: true }));
      }}
    >
      <option value="">Choose…</option>
      {Object.entries(options).map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </SelectField>
  );

  return (
    <form
      method="post"
      className="flex flex-col gap-5"
      data-testid="intake-form"
      onSubmit={(e) => {
        e.preventDefault();
        void finish();
      }}
    >
      <p className="flex items-center gap-2 text-sm text-slate-600" aria-live="polite" data-testid="intake-status">
        {status === 'saving' ? (
          <>
            <CloudUpload className="h-4 w-4" aria-hidden="true" /> Saving…
          </>
        ) : status === 'saved' ? (
          <>
            <CheckCircle2 className="h-4 w-4 text-brand-700" aria-hidden="true" /> Saved. You can leave and finish later.
          </>
        ) : status === 'failed' ? (
          <span className="text-red-700">Not saved: check the answers marked in red.</span>
        ) : (
          'Your answers are saved as you go.'
        )}
      </p>
      <Card title="Health" className="p-0">
        <div className="flex flex-col gap-4 p-4 sm:p-5">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">
              Medical conditions <span className="font-normal text-slate-500">(tick any that apply)</span>
            </legend>
            <div className="mt-2 grid grid-cols-1 gap-2 xs:grid-cols-2">
              {Object.entries(CONDITIONS).map(([value, label]) => (
                <label key={value} className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 text-slate-800">
                  <input
                    type="checkbox"
                    className="h-5 w-5 accent-brand-700"
                    checked={draft.conditions.includes(value)}
                    onChange={(e) =>
                      set('conditions', e.target.checked ? [...draft.conditions, value] : draft.conditions.filter((c) => c !== value))
                    }
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          {text('otherConditions', 'Other conditions', { rows: 2, placeholder: 'e.g. fatty liver, IBS, anaemia' })}
          {text('medicines', 'Medicines and supplements', {
            rows: 2,
            placeholder: 'Name and dose, e.g. Thyronorm 50 mcg, vitamin D weekly',
          })}
          {text('allergies', 'Allergies and intolerances', { rows: 2, placeholder: 'e.g. lactose, peanuts' })}
        </div>
      </Card>
      <Card title="Food and routine" className="p-0">
        <div className="flex flex-col gap-4 p-4 sm:p-5">
          <div className="grid gap-4 sm:grid-cols-2">
            {select('dietPattern', 'Diet pattern', DIET_PATTERNS)}
            {text('cuisine', 'Cuisine and region', { placeholder: 'e.g. Gujarati, South Indian' })}
          </div>
          {text('typicalDay', 'A typical day’s meals and their times', {
            rows: 4,
            placeholder: '7 am tea and 2 biscuits\n9 am poha\n1:30 pm dal, rice, sabzi\n…',
          })}
          <div className="grid gap-4 sm:grid-cols-2">
            {select('activityLevel', 'Activity level', ACTIVITY_LEVELS)}
            {text('sleepHours', 'Sleep (hours a night)', { placeholder: 'e.g. 7' })}
          </div>
        </div>
      </Card>
      <Card title="Your goals" className="p-0">
        <div className="flex flex-col gap-4 p-4 sm:p-5">
          {text('goalsInWords', 'Your goals in your own words', { rows: 3, placeholder: 'What would you like to change, and by when?' })}
          {text('womensHealth', 'Women’s health', {
            rows: 2,
            hint: 'Only if relevant: cycles, pregnancy, breastfeeding, menopause.',
          })}
        </div>
      </Card>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={finishing}>
          {done ? 'Save changes' : 'Finish questionnaire'}
        </Button>
        {done && <span className="text-sm text-brand-800">You finished this questionnaire. Edits are saved as you go.</span>}
      </div>
    </form>
  );
}
