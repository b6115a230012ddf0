import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, Pencil, Target, Wand2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ACTIVITY_LEVELS } from '../../../../server/care-record/schema';
import { HEADLINE_NUTRIENTS, NUTRIENTS, type NutrientKey, formatNutrient } from '../../../../server/nutrition/nutrients';
import { ACTIVITY_KEYS, type TargetsView, shownNutrients } from '../../../../server/nutrition/targets-schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SelectField, TextField } from '../../../components/ui/Field';
import { toastError } from '../../../lib/notify';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { Badge, LoadError, Loading } from '../../admin/ui';
import { formatMoment } from '../../admin/format';
import {
  MICRONUTRIENT_CHOICES,
  type PersonForm,
  type TargetsForm,
  applySuggestion,
  percentOfEnergy,
  personForm,
  readPerson,
  readTargets,
  startingAmount,
  targetsForm,
} from './targets-form';

const label = (key: NutrientKey) => `${NUTRIENTS[key].label} (${NUTRIENTS[key].unit} a day)`;

/**
 * The dietitian's panel on a client's record: the client's daily targets and whether the client
 * sees numbers; Edit opens the editor, where a suggestion from the client's age, sex, weight,
 * height and activity (filled from the record) can be put in and changed before saving.
 */
export function NutritionTargetsCard({ clientId }: { clientId: number }) {
  const trpc = useTRPC();
  const view = useQuery(trpc.nutritionTargets.get.queryOptions({ clientId }));
  const [editing, setEditing] = useState(false);
  return (
    <Card
      className="lg:col-span-2"
      title="Nutrition targets"
      actions={
        view.data && !editing ? (
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
            {view.data.set ? 'Edit targets' : 'Set targets'}
          </Button>
        ) : null
      }
    >
      <div className="p-4 sm:p-5" data-testid="nutrition-targets">
        {view.isPending ? (
          <Loading label="Loading the targets" />
        ) : view.isError ? (
          <LoadError error={view.error} onRetry={() => void view.refetch()} />
        ) : editing ? (
          <TargetsEditor clientId={clientId} view={view.data} onDone={() => setEditing(false)} />
        ) : (
          <TargetsSummary view={view.data} />
        )}
      </div>
    </Card>
  );
}

function TargetsSummary({ view }: { view: TargetsView }) {
  if (!view.set || !view.targets) {
    return <p className="text-slate-600">No daily targets yet. Set them to see plans and meals against them.</p>;
  }
  const targets = view.targets;
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        {shownNutrients(targets).map((key) => (
          <div key={key} className="min-w-0" data-nutrient={key}>
            <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{NUTRIENTS[key].label}</dt>
            <dd className="tabular-nums text-slate-900">{targets[key] === undefined ? '—' : formatNutrient(key, targets[key]!)}</dd>
          </div>
        ))}
      </dl>
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        {view.showNumbers ? (
          <Badge tone="teal">The client sees numbers</Badge>
        ) : (
          <Badge tone="amber">
            <EyeOff className="mr-1 inline h-3.5 w-3.5" aria-hidden="true" />
            Numbers hidden from the client
          </Badge>
        )}
        {view.updatedAt && <span>Set {formatMoment(new Date(view.updatedAt))}</span>}
      </p>
    </div>
  );
}

function TargetsEditor({ clientId, view, onDone }: { clientId: number; view: TargetsView; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const facts = useQuery(trpc.nutritionTargets.facts.queryOptions({ clientId }));
  const save = useMutation(trpc.nutritionTargets.set.mutationOptions());
  const [form, setForm] = useState<TargetsForm>(() => targetsForm(view));
  const [person, setPerson] = useState<PersonForm | null>(null);
  const [personErrors, setPersonErrors] = useState<Partial<Record<keyof PersonForm, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<NutrientKey, string>>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const shownPerson = person ?? (facts.data ? personForm(facts.data, view.basis?.suggestion) : null);

  const setAmount = (key: NutrientKey, value: string) => setForm((f) => ({ ...f, amounts: { ...f.amounts, [key]: value } }));
  const toggle = (key: NutrientKey, on: boolean) =>
    setForm((f) => ({
      ...f,
      chosen: on ? MICRONUTRIENT_CHOICES.filter((k) => k === key || f.chosen.includes(k)) : f.chosen.filter((k) => k !== key),
      amounts: on && f.amounts[key] === '' ? { ...f.amounts, [key]: startingAmount(key, shownPerson?.sex ?? '') } : f.amounts,
    }));

  const suggest = () => {
    if (!shownPerson) return;
    const read = readPerson(shownPerson);
    if (!read.ok) {
      setPersonErrors(read.errors);
      return;
    }
    setPersonErrors({});
    setForm((f) => applySuggestion(f, read.person));
    toast.success('Suggestion put in: change what you need, then save');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readTargets(form);
    if (!read.ok) {
      setErrors(read.errors);
      setProblems(read.form);
      return;
    }
    setErrors({});
    setProblems([]);
    const basisPerson = shownPerson ? readPerson(shownPerson) : null;
    try {
      await overlay.run(save.mutateAsync({ clientId, ...read.value, suggestion: basisPerson?.ok ? basisPerson.person : undefined }));
      // The days' shares of their targets change with them (the week chart, the journal's totals).
      await Promise.all([
        queryClient.invalidateQueries(trpc.nutritionTargets.pathFilter()),
        queryClient.invalidateQueries(trpc.nutritionDays.pathFilter()),
        queryClient.invalidateQueries(trpc.journal.day.pathFilter()),
      ]);
      toast.success('Targets saved');
      onDone();
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <form method="post" onSubmit={submit} noValidate className="flex flex-col gap-6" data-testid="targets-editor">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">Suggest from the client</legend>
        <p className="text-sm text-slate-600">
          Energy by Mifflin–St Jeor × activity, protein per kg, fat as a share of energy, carbohydrate the rest, fibre 14 g per 1000 kcal;
          micronutrients at the ICMR–NIN 2020 RDA. Filled from the record where it knows.
        </p>
        {facts.isError ? (
          <LoadError error={facts.error} onRetry={() => void facts.refetch()} />
        ) : !shownPerson ? (
          <Loading label="Reading the record" />
        ) : (
          <>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <PersonField name="ageYears" label="Age (years)" person={shownPerson} errors={personErrors} onChange={setPerson} />
              <SelectField
                label="Sex"
                value={shownPerson.sex}
                error={personErrors.sex}
                onChange={(e) => setPerson({ ...shownPerson, sex: e.target.value })}
              >
                <option value="">Choose</option>
                <option value="female">Female</option>
                <option value="male">Male</option>
              </SelectField>
              <PersonField name="weightKg" label="Weight (kg)" person={shownPerson} errors={personErrors} onChange={setPerson} />
              <PersonField name="heightCm" label="Height (cm)" person={shownPerson} errors={personErrors} onChange={setPerson} />
            </div>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_1fr]">
              <SelectField
                label="Activity"
                value={shownPerson.activity}
                error={personErrors.activity}
                onChange={(e) => setPerson({ ...shownPerson, activity: e.target.value })}
              >
                <option value="">Choose</option>
                {ACTIVITY_KEYS.map((key) => (
                  <option key={key} value={key}>
                    {ACTIVITY_LEVELS[key]}
                  </option>
                ))}
              </SelectField>
              <PersonField
                name="proteinGPerKg"
                label="Protein (g per kg)"
                person={shownPerson}
                errors={personErrors}
                onChange={setPerson}
              />
              <PersonField name="fatPercent" label="Fat (% of energy)" person={shownPerson} errors={personErrors} onChange={setPerson} />
            </div>
            <div>
              <Button type="button" variant="secondary" size="sm" onClick={suggest}>
                <Wand2 className="h-4 w-4" aria-hidden="true" />
                Put in the suggestion
              </Button>
            </div>
          </>
        )}
      </fieldset>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">Daily targets</legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {HEADLINE_NUTRIENTS.map((key) => {
            const share = key === 'proteinG' || key === 'carbohydrateG' || key === 'fatG' ? percentOfEnergy(key, form) : null;
            return (
              <TextField
                key={key}
                label={label(key)}
                inputMode="decimal"
                autoComplete="off"
                value={form.amounts[key]}
                error={errors[key]}
                hint={share !== null ? `${share} % of energy` : undefined}
                onChange={(e) => setAmount(key, e.target.value)}
              />
            );
          })}
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold text-slate-900">Micronutrients to follow</legend>
        <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
          {MICRONUTRIENT_CHOICES.map((key) => {
            const on = form.chosen.includes(key);
            return (
              <div key={key} className="flex min-w-0 flex-col gap-1">
                <label className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-700"
                    checked={on}
                    onChange={(e) => toggle(key, e.target.checked)}
                  />
                  {NUTRIENTS[key].label}
                </label>
                {on && (
                  <TextField
                    label={label(key)}
                    hideLabel
                    inputMode="decimal"
                    autoComplete="off"
                    value={form.amounts[key]}
                    error={errors[key]}
                    onChange={(e) => setAmount(key, e.target.value)}
                  />
                )}
              </div>
            );
          })}
        </div>
      </fieldset>

      <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 accent-brand-700"
          checked={form.showNumbers}
          onChange={(e) => setForm((f) => ({ ...f, showNumbers: e.target.checked }))}
        />
        <span className="text-sm text-slate-800">
          <span className="font-semibold">The client sees numbers</span>
          <span className="block text-slate-600">
            Turn off in eating-disorder care: the client then sees no energy, grams or shares anywhere, in the app or the API.
          </span>
        </span>
      </label>

      {problems.length > 0 && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {problems.join(' ')}
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          <Target className="h-4 w-4" aria-hidden="true" />
          Save targets
        </Button>
      </div>
    </form>
  );
}

function PersonField({
  name,
  label,
  person,
  errors,
  onChange,
}: {
  name: keyof PersonForm;
  label: string;
  person: PersonForm;
  errors: Partial<Record<keyof PersonForm, string>>;
  onChange: (p: PersonForm) => void;
}) {
  return (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={person[name]}
      error={errors[name]}
      onChange={(e) => onChange({ ...person, [name]: e.target.value })}
    />
  );
}
