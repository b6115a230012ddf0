import { Star } from 'lucide-react';
import { useState } from 'react';
import { RATING_MAX_STARS, ratingLabel } from '../../../../server/rating/schema';

const STARS = Array.from({ length: RATING_MAX_STARS }, (_, i) => i + 1);

/** How much of star number `star` (1-based) is filled for a rating: 0, 0.5 or 1. */
export const starFill = (rating: number, star: number) => (rating >= star ? 1 : rating >= star - 0.5 ? 0.5 : 0);

/**
 * Half-star rating: each star has a left half (x.5) and a right
 * half (whole star); hovering shows the label of the value under the pointer.
 * Built from native radio buttons, so Tab reaches it and the arrow keys
 * change the value, and screen readers announce "3.5 stars, Good".
 */
export function HalfStarRating({
  name,
  value,
  onChange,
  invalid,
  describedBy,
  labelledBy,
}: {
  name: string;
  value: number;
  onChange: (value: number) => void;
  invalid?: boolean;
  describedBy?: string;
  labelledBy?: string;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value;
  const label = ratingLabel(shown);

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <div
        role="radiogroup"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required="true"
        className="flex rounded-lg p-1 has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-brand-500"
        onMouseLeave={() => setHover(null)}
        data-testid="star-rating"
      >
        {STARS.map((star) => {
          const fill = starFill(shown, star);
          return (
            <span key={star} className="relative h-10 w-10 sm:h-11 sm:w-11">
              <Star
                className={`absolute inset-0 h-full w-full ${invalid ? 'text-red-300' : 'text-slate-300'}`}
                strokeWidth={1.5}
                aria-hidden="true"
              />
              {fill > 0 && (
                <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill * 100}%` }} aria-hidden="true">
                  <Star className="h-10 w-10 fill-amber-400 text-amber-500 sm:h-11 sm:w-11" strokeWidth={1.5} />
                </span>
              )}
              {[star - 0.5, star].map((v) => (
                <label
                  key={v}
                  className={`absolute inset-y-0 w-1/2 cursor-pointer ${Number.isInteger(v) ? 'right-0' : 'left-0'}`}
                  onMouseEnter={() => setHover(v)}
                >
                  <input
                    type="radio"
                    name={name}
                    value={v}
                    checked={value === v}
                    onChange={() => onChange(v)}
                    onFocus={() => setHover(null)}
                    className="sr-only"
                  />
                  <span className="sr-only">
                    {v} {v === 1 ? 'star' : 'stars'}, {ratingLabel(v)}
                  </span>
                </label>
              ))}
            </span>
          );
        })}
      </div>
      <span
        className={`min-w-24 text-lg font-semibold ${label ? 'text-slate-800' : 'text-slate-500'}`}
        aria-hidden="true"
        data-testid="rating-label"
      >
        {label ?? 'Tap a star'}
      </span>
    </div>
  );
}
