import { ChevronLeft, ChevronRight, Quote } from 'lucide-react';
import { useRef, useState } from 'react';
import { SectionHeading } from '../components/SectionHeading';
import { STORIES, type Story } from '../content';
import { TWO_STORIES_QUERY, useMediaQuery } from '../lib/use-media-query';
import { revealClasses, useReveal } from '../lib/use-reveal';

function StoryCard({ story }: { story: Story }) {
  return (
    <figure className="flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-md ring-1 ring-slate-200">
      {story.video ? (
        // preload="none": nothing downloads until the visitor presses play.
        <video
          className="aspect-video w-full bg-slate-800 object-cover"
          poster={story.poster}
          controls
          preload="none"
          playsInline
          width={640}
          height={360}
          aria-label={`Video: ${story.name} shares their story`}
        >
          <source src={story.video} type="video/mp4" />
          <track kind="captions" src={`/captions/story-${story.id}.vtt`} srcLang="en" label="English" default />
        </video>
      ) : (
        <img
          src={story.poster}
          alt={`${story.name}, smiling at home`}
          width={640}
          height={360}
          loading="lazy"
          decoding="async"
          className="aspect-video w-full object-cover"
        />
      )}
      <div className="flex flex-1 flex-col p-6">
        <Quote className="h-7 w-7 text-brand-500" aria-hidden="true" />
        <blockquote className="mt-3 flex-1 text-lg leading-relaxed text-slate-800">{story.quote}</blockquote>
        <figcaption className="mt-4">
          <span className="block font-bold text-slate-900">{story.name}</span>
          <span className="text-sm text-brand-800">{story.result}</span>
        </figcaption>
      </div>
    </figure>
  );
}

/**
 * Two stories a page (one below 640 px). Previous is disabled on the
 * first page and Next on the last. Animates in once at 20% visibility.
 */
export function StoriesCarousel() {
  const { ref, shown } = useReveal<HTMLElement>(0.2);
  const perPage = useMediaQuery(TWO_STORIES_QUERY) ? 2 : 1;
  const pageCount = Math.ceil(STORIES.length / perPage);
  const [requestedPage, setPage] = useState(0);
  // When the window widens, the current page may no longer exist.
  const page = Math.min(requestedPage, pageCount - 1);
  const visible = STORIES.slice(page * perPage, page * perPage + perPage);
  const prevButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  // A button that becomes disabled would drop keyboard focus: hand it to the other one.
  const go = (to: number) => {
    setPage(to);
    if (to === 0) nextButton.current?.focus();
    else if (to === pageCount - 1) prevButton.current?.focus();
  };

  return (
    <section ref={ref} aria-labelledby="stories-title" data-testid="stories" data-shown={shown} className="bg-slate-50 py-16 md:py-20">
      <div className={`page-container ${revealClasses(shown)}`}>
        <SectionHeading
          id="stories-title"
          eyebrow="Real stories"
          title="Real people, real results"
          lead="Clients tell you, in their own words, what changed when their plan finally fitted their life."
        />
        <div className="mt-10" role="group" aria-roledescription="carousel" aria-label="Client stories">
          <div className={`grid gap-6 ${perPage === 2 ? 'grid-cols-2' : 'grid-cols-1'}`} data-testid="stories-page">
            {visible.map((story) => (
              <StoryCard key={story.id} story={story} />
            ))}
          </div>
          <div className="mt-8 flex items-center justify-center gap-4">
            <button
              ref={prevButton}
              type="button"
              onClick={() => go(page - 1)}
              disabled={page === 0}
              aria-label="Previous stories"
              className="rounded-full border border-brand-700 p-3 text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-400 disabled:hover:bg-transparent"
            >
              <ChevronLeft className="h-5 w-5" aria-hidden="true" />
            </button>
            <p className="min-w-24 text-center text-sm font-semibold text-slate-700" aria-live="polite" data-testid="stories-position">
              {page + 1} of {pageCount}
            </p>
            <button
              ref={nextButton}
              type="button"
              onClick={() => go(page + 1)}
              disabled={page >= pageCount - 1}
              aria-label="Next stories"
              className="rounded-full border border-brand-700 p-3 text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-400 disabled:hover:bg-transparent"
            >
              <ChevronRight className="h-5 w-5" aria-hidden="true" />
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
