import { BMI_THRESHOLDS, GAUGE, gaugeAngle } from '../../../lib/bmi';

const CX = 120;
const CY = 124;
const R = 92;

function point(deg: number, r = R) {
  const rad = (deg * Math.PI) / 180;
  return { x: CX + r * Math.sin(rad), y: CY - r * Math.cos(rad) };
}

function arc(fromBmi: number, toBmi: number) {
  const a = gaugeAngle(fromBmi);
  const b = gaugeAngle(toBmi);
  const start = point(a);
  const end = point(b);
  const large = b - a > 180 ? 1 : 0;
  return `M ${start.x.toFixed(2)} ${start.y.toFixed(2)} A ${R} ${R} 0 ${large} 1 ${end.x.toFixed(2)} ${end.y.toFixed(2)}`;
}

/** Healthy is green, every other category red (deeper red further from healthy). */
const BANDS = [
  { from: GAUGE.minBmi, to: BMI_THRESHOLDS.healthyFrom, className: 'stroke-red-300' },
  { from: BMI_THRESHOLDS.healthyFrom, to: BMI_THRESHOLDS.overweightFrom, className: 'stroke-green-500' },
  { from: BMI_THRESHOLDS.overweightFrom, to: BMI_THRESHOLDS.obesityFrom, className: 'stroke-red-400' },
  { from: BMI_THRESHOLDS.obesityFrom, to: GAUGE.maxBmi, className: 'stroke-red-600' },
];
const TICKS = [BMI_THRESHOLDS.healthyFrom, BMI_THRESHOLDS.overweightFrom, BMI_THRESHOLDS.obesityFrom];

/** A dial from -110° to 110°; the needle points at the BMI (clamped to the scale's ends). */
export function BmiGauge({ bmi }: { bmi: number }) {
  const angle = gaugeAngle(bmi);
  return (
    <svg
      viewBox="0 0 240 172"
      className="w-full max-w-xs"
      role="img"
      aria-label={`BMI gauge pointing at ${bmi.toFixed(1)}`}
      data-testid="bmi-gauge"
      data-angle={angle.toFixed(2)}
    >
      {BANDS.map((band) => (
        <path key={band.from} d={arc(band.from, band.to)} className={band.className} strokeWidth={18} fill="none" />
      ))}
      {TICKS.map((t) => {
        const p = point(gaugeAngle(t), R + 19);
        return (
          <text key={t} x={p.x} y={p.y} textAnchor="middle" dominantBaseline="middle" className="fill-slate-600 text-[11px] font-semibold">
            {t}
          </text>
        );
      })}
      <g
        style={{ transform: `rotate(${angle}deg)`, transformOrigin: `${CX}px ${CY}px` }}
        className="motion-safe:transition-transform motion-safe:duration-500"
      >
        <path d={`M ${CX - 5} ${CY} L ${CX} ${CY - R + 8} L ${CX + 5} ${CY} Z`} className="fill-slate-800" />
      </g>
      <circle cx={CX} cy={CY} r={9} className="fill-slate-800" />
      <circle cx={CX} cy={CY} r={3.5} className="fill-white" />
    </svg>
  );
}
