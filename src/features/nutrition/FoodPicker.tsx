import { Search } from 'lucide-react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { FOOD_GROUPS } from '../../../server/nutrition/groups';
import { formatNutrient } from '../../../server/nutrition/nutrients';
import type { FoodSummary } from '../../../server/nutrition/schema';
import { FieldShell, controlClasses } from '../../components/ui/Field';
import { useFoodSearch } from './use-foods';

export type FoodPickerProps = {
  /** The field's visible (or, with hideLabel, spoken) name, e.g. "Add a food". */
  label: string;
  onPick: (food: FoodSummary) => void;
  hideLabel?: boolean;
  placeholder?: string;
  /** Under the field, e.g. "Search in English or Hindi". */
  hint?: string;
  error?: string;
  /** How many foods to list (default 12). */
  limit?: number;
  autoFocus?: boolean;
  /** Keep the text after a pick (default: cleared, ready for the next food). */
  keepText?: boolean;
  id?: string;
  /** False for a client who is not shown numbers (eating-disorder care): foods are named, never counted. */
  showNumbers?: boolean;
};

/**
 * Choose a food by typing any of its names, in English, Hindi or a transliteration ("toor",
 * "अरहर", "panner" finds paneer): a combobox whose list follows every key (useFoodSearch),
 * the person's recent foods before anything is typed. Arrow keys move, Enter picks, Escape
 * closes then clears; a tap picks. Each food shows its Hindi name beside the English one, its
 * group and its energy and protein per 100 g.
 */
export function FoodPicker({
  label,
  onPick,
  hideLabel,
  placeholder = 'e.g. dal, paneer, रोटी',
  hint,
  error,
  limit,
  autoFocus,
  keepText,
  id,
  showNumbers = true,
}: FoodPickerProps) {
  const autoId = useId();
  const inputId = id ?? `${autoId}-input`;
  const listId = `${autoId}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useFoodSearch(q, { limit, enabled: open || q !== '' });
  const foods = search.foods;
  const showList = open && (foods.length > 0 || q.trim() !== '');

  const pick = (food: FoodSummary) => {
    onPick(food);
    if (!keepText) setQ('');
    setActive(-1);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      if (foods.length > 0) setActive((i) => (i + 1) % foods.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (foods.length > 0) setActive((i) => (i <= 0 ? foods.length - 1 : i - 1));
    } else if (e.key === 'Enter') {
      // Enter never submits the form around the picker: it picks the highlighted food, or the only one.
      if (!showList) return;
      e.preventDefault();
      const chosen = foods[active] ?? (foods.length === 1 ? foods[0] : undefined);
      if (chosen) pick(chosen);
    } else if (e.key === 'Escape') {
      if (showList) {
        e.stopPropagation();
        setOpen(false);
        setActive(-1);
      } else if (q) {
        e.stopPropagation();
        setQ('');
      }
    }
  };
  const optionId = (i: number) => `${autoId}-option-${i}`;
  const describedBy = [error ? `${inputId}-error` : hint ? `${inputId}-hint` : null, `${autoId}-status`].filter(Boolean).join(' ');
  const status = !showList
    ? ''
    : search.searching && foods.length === 0
      ? 'Searching…'
      : foods.length === 0
        ? 'No food matches. Try another name, or its Hindi name.'
        : search.recent
          ? `${foods.length} recent foods`
          : `${foods.length} foods found`;

  return (
    <div className="relative" data-testid="food-picker">
      <FieldShell label={label} error={error} hint={hint} id={inputId} hideLabel={hideLabel}>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
          <input
            ref={inputRef}
            id={inputId}
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={showList}
            aria-controls={listId}
            aria-activedescendant={showList && foods[active] ? optionId(active) : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            enterKeyHint="search"
            // biome-ignore lint/a11y/noAutofocus: only where the caller opened a form to add a food
            autoFocus={autoFocus}
            placeholder={placeholder}
            value={q}
            className={`${controlClasses(Boolean(error))} pl-9`}
            onChange={(e) => {
              setQ(e.target.value);
              setActive(-1);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
          />
        </div>
      </FieldShell>
      <span id={`${autoId}-status`} className="sr-only" aria-live="polite">
        {status}
      </span>
      <div
        className={`absolute inset-x-0 top-full z-30 mt-1 max-h-72 overflow-y-auto overscroll-contain rounded-lg border border-slate-200 bg-white shadow-lg ${
          showList ? '' : 'hidden'
        }`}
        data-testid="food-picker-results"
      >
        {search.recent && foods.length > 0 && (
          <p className="px-3 pt-2 text-xs font-medium uppercase tracking-wide text-slate-600">Recent</p>
        )}
        {foods.length === 0 && <p className="px-3 py-2 text-sm text-slate-600">{status}</p>}
        <div id={listId} role="listbox" aria-label={search.recent ? `${label}: recent foods` : label}>
          {foods.map((food, i) => (
            // The input keeps focus; a press picks (mousedown would blur the input and close the list first).
            <div
              key={food.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={`flex min-h-11 cursor-pointer flex-col justify-center gap-0.5 px-3 py-2 hover:bg-brand-50 ${i === active ? 'bg-brand-50' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(food)}
              onKeyDown={(e) => e.key === 'Enter' && pick(food)}
              tabIndex={-1}
            >
              <span className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium text-slate-900">{food.name}</span>
                {food.nameHi && (
                  <span lang="hi" className="text-slate-700">
                    {food.nameHi}
                  </span>
                )}
              </span>
              <span className="text-xs text-slate-600">{foodLine(food, showNumbers)}</span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

/** "Grain legumes (dals) · 335 kcal · 22.3 g protein per 100 g": enough to tell two similar foods apart. */
function foodLine(food: FoodSummary, showNumbers: boolean): string {
  const parts: string[] = [food.kind === 'recipe' ? 'Recipe' : FOOD_GROUPS[food.group].label];
  if (!showNumbers) return parts.join(' · ');
  const { energyKcal, proteinG } = food.per100g;
  const amounts = [
    energyKcal !== undefined ? formatNutrient('energyKcal', energyKcal) : null,
    proteinG !== undefined ? `${formatNutrient('proteinG', proteinG)} protein` : null,
  ].filter(Boolean);
  if (amounts.length > 0) parts.push(`${amounts.join(' · ')} per 100 g`);
  return parts.join(' · ');
}
