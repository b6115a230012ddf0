import { Gauge } from 'lucide-react';
import { HEIGHT_M } from '../../../../server/measurements/schema';
import { useState } from 'react';
import { Card } from '../../../components/ui/Card';
import { TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { bmiCategory, formatBmi, readBmiInput } from '../../../lib/bmi';
import { session } from '../../../lib/session';
import { BmiGauge } from './BmiGauge';

const LEGEND = [
  { label: 'Underweight', range: 'below 18.5', healthy: false },
  { label: 'Healthy Weight', range: '18.5 – 24.9', healthy: true },
  { label: 'Overweight', range: '25 – 29.9', healthy: false },
  { label: 'Obesity', range: '30 and above', healthy: false },
];

const startValue = (n: number | null | undefined) => (typeof n === 'number' && n > 0 ? String(n) : '');

/**
 * Height (m) and weight; once both are filled the BMI shows on
 * the gauge, with 3 decimals and its category. Values that cannot be a body
 * (zero, negative, centimetres typed as metres) get a hint, never NaN.
 */
export function CheckBmiPage() {
  const [height, setHeight] = useState(() => startValue(session.info()?.height));
  const [weight, setWeight] = useState(() => startValue(session.info()?.weight));
  const result = readBmiInput(height, weight);
  const bmi = result.kind === 'ok' ? result.bmi : 0;
  const category = bmi > 0 ? bmiCategory(bmi) : null;

  return (
    <Page title="Check BMI" lead="Body-mass index is your weight divided by the square of your height." width="max-w-3xl">
      <Card className="p-5 sm:p-8">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Height (m)"
            type="number"
            inputMode="decimal"
            step="0.01"
            min={HEIGHT_M.min}
            max={HEIGHT_M.max}
            placeholder="e.g., 1.70"
            value={height}
            onChange={(e) => setHeight(e.target.value)}
            error={result.kind === 'invalid' && result.field === 'height' ? result.hint : undefined}
            hint="In metres, e.g. 1.70"
          />
          <TextField
            label="Weight (kg)"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g., 70"
            value={weight}
            onChange={(e) => setWeight(e.target.value)}
            error={result.kind === 'invalid' && result.field === 'weight' ? result.hint : undefined}
            hint="In kilograms, e.g. 70"
          />
        </div>

        <div className="mt-8 flex flex-col items-center gap-2" aria-live="polite">
          {category ? (
            <>
              <BmiGauge bmi={bmi} />
              <p className="text-sm font-medium tracking-wide text-slate-600 uppercase">Your BMI</p>
              <p className="text-4xl font-extrabold text-slate-900 tabular-nums" data-testid="bmi-value">
                {formatBmi(bmi)}
              </p>
              <p className={`text-xl font-bold ${category.healthy ? 'text-green-700' : 'text-red-700'}`} data-testid="bmi-category">
                {category.label}
              </p>
            </>
          ) : (
            <div className="flex flex-col items-center gap-2 py-6 text-center text-slate-600" data-testid="bmi-empty">
              <Gauge className="h-10 w-10 text-brand-600" aria-hidden="true" />
              <p>Enter your height and weight to see your BMI.</p>
            </div>
          )}
        </div>

        <ul className="mt-8 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" aria-label="BMI categories">
          {LEGEND.map((item) => (
            <li
              key={item.label}
              className={`rounded-lg border px-3 py-2 ${
                category?.label === item.label
                  ? item.healthy
                    ? 'border-green-600 bg-green-50'
                    : 'border-red-600 bg-red-50'
                  : 'border-slate-200'
              }`}
            >
              <span className={`block font-semibold ${item.healthy ? 'text-green-700' : 'text-red-700'}`}>{item.label}</span>
              <span className="text-slate-600">{item.range}</span>
            </li>
          ))}
        </ul>
      </Card>
    </Page>
  );
}
