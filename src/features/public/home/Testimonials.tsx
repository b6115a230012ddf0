import { Star, StarHalf } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { RouterOutputs } from '../../../lib/router-types';
import { SectionHeading } from '../components/SectionHeading';
import { postedMonth, TESTIMONIALS } from '../content';

type Card = { id: string; name: string; review: string; month: string; stars: number; img: string | null };

/** Shown while fewer than three client reviews are published (and if they cannot be loaded). */
const WRITTEN: Card[] = TESTIMONIALS.map((t) => ({
  id: `written-${t.id}`,
  name: t.clientName,
  review: t.clientReview,
  month: t.postedOn,
  stars: 5,
  img: t.img,
}));

type Published = RouterOutputs['testimonials']['published'];

/** Kept this long, as a query would be (navigating back home does not refetch at once). */
const FRESH_MS = 10 * 60_000;
let cached: { at: number; result: Promise<Published> } | null = null;

/**
 * The published reviews, over plain HTTP: the home page loads no tRPC client
 * (lib/lazy-with-data). The output is plain JSON, so only the envelope of
 * tRPC and superjson is unwrapped.
 */
function fetchPublished(): Promise<Published> {
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.result;
  const result = fetch('/trpc/testimonials.published', { headers: { accept: 'application/json' } }).then(async (res) => {
    if (!res.ok) throw new Error(`testimonials.published answered ${res.status}`);
    const body = (await res.json()) as { result: { data: { json: Published } } };
    return body.result.data.json;
  });
  cached = { at: Date.now(), result };
  result.catch(() => {
    cached = null;
  });
  return result;
}

/** Three testimonials. */
const SHOWN = 3;

function Stars({ stars }: { stars: number }) {
  const full = Math.floor(stars);
  return (
    <div className="flex gap-0.5 text-amber-500" role="img" aria-label={`Rated ${stars} out of 5`}>
      {Array.from({ length: full }, (_, i) => (
        <Star key={i} className="h-5 w-5 fill-current" aria-hidden="true" />
      ))}
      {stars > full && <StarHalf className="h-5 w-5 fill-current" aria-hidden="true" />}
    </div>
  );
}

function Avatar({ card }: { card: Card }) {
  if (card.img) {
    return <img src={card.img} alt="" width={56} height={56} loading="lazy" decoding="async" className="h-14 w-14 rounded-full" />;
  }
  return (
    <span
      className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-800"
      aria-hidden="true"
    >
      {card.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * The reviews the dietitians chose to publish (testimonials.published: empty
 * until three are), falling back to the written ones. Either way three cards
 * of the same shape, so nothing jumps when the published ones arrive.
 */
export function Testimonials() {
  // Fetched after hydration (the prerendered page shows the written ones); a failure keeps them.
  const [published, setPublished] = useState<Published | null>(null);
  useEffect(() => {
    let live = true;
    fetchPublished().then(
      (result) => live && setPublished(result),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  const items = (published?.items ?? []).filter((t) => t.clientReview.trim() !== '');
  const cards: Card[] =
    items.length >= SHOWN
      ? items.slice(0, SHOWN).map((t) => ({
          id: `review-${t.id}`,
          name: t.clientName,
          review: t.clientReview,
          month: t.postedMonth,
          stars: t.stars,
          img: null,
        }))
      : WRITTEN;

  return (
    <section aria-labelledby="testimonials-title" className="bg-slate-50 py-16 md:py-20">
      <div className="page-container">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="What our clients say" />
        <ul
          className="mt-10 grid gap-6 md:grid-cols-3"
          data-testid="testimonials"
          data-source={cards === WRITTEN ? 'written' : 'published'}
        >
          {cards.map((card) => (
            <li key={card.id}>
              <figure className="flex h-full flex-col rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200">
                <Stars stars={card.stars} />
                <blockquote className="mt-4 flex-1 leading-relaxed text-slate-700">“{card.review}”</blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <Avatar card={card} />
                  <span>
                    <span className="block font-bold text-slate-900">{card.name}</span>
                    <span className="text-sm text-slate-600">
                      Posted <time dateTime={card.month}>{postedMonth(card.month)}</time>
                    </span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
