import { CalendarCheck, Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { SITE } from '../../../site-config';
import { usePrefersReducedMotion } from '../lib/use-media-query';

/** Visitors on a data saver get the poster, not a background video. */
const saveData = () => Boolean((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData);

/**
 * The hero is a video with a quote. The poster is always painted
 * first (and stays if the video is not configured or cannot load), so the
 * hero never shifts or looks empty offline. The background video can be paused (WCAG 2.2.2) and
 * does not play at all for visitors who prefer reduced motion.
 */
export function Hero() {
  const reducedMotion = usePrefersReducedMotion();
  const [videoFailed, setVideoFailed] = useState(false);
  const [paused, setPaused] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const showVideo = Boolean(SITE.videos.hero) && !reducedMotion && !videoFailed && !saveData();

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (paused) video.pause();
    else void video.play().catch(() => {});
  }, [paused]);

  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate flex min-h-[640px] items-end overflow-hidden bg-slate-900 text-white md:min-h-[92vh]"
    >
      <img
        src="/images/hero-poster.svg"
        alt=""
        width={1600}
        height={900}
        fetchPriority="high"
        className="absolute inset-0 -z-20 h-full w-full object-cover"
      />
      {showVideo && (
        <video
          ref={videoRef}
          className="absolute inset-0 -z-20 h-full w-full object-cover"
          src={SITE.videos.hero ?? undefined}
          poster="/images/hero-poster.svg"
          autoPlay
          muted
          loop
          playsInline
          preload="metadata"
          aria-hidden="true"
          tabIndex={-1}
          onError={() => setVideoFailed(true)}
        />
      )}
      <div className="absolute inset-0 -z-10 bg-gradient-to-t from-slate-950/95 via-slate-950/70 to-slate-950/40" />
      <div className="page-container pt-28 pb-16 md:pb-24">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-semibold text-brand-100 ring-1 ring-white/20 backdrop-blur">
          Certified dietitians · 100% online
        </p>
        <h1
          id="hero-title"
          className="mt-5 max-w-3xl text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
        >
          Eat the food you love. Reach the health you want.
        </h1>
        <figure className="mt-6 max-w-2xl border-l-4 border-brand-400 pl-4">
          <blockquote className="text-lg leading-relaxed text-slate-100 sm:text-xl">
            “Good nutrition isn’t about eating less. It’s about eating right for the body and the life you actually have.”
          </blockquote>
          <figcaption className="mt-2 text-sm font-semibold text-brand-200">
            {SITE.founderName}, founder of {SITE.brandName}
          </figcaption>
        </figure>
        <div className="mt-8 flex flex-col gap-3 xs:flex-row">
          <Link href="/consult?book=true" className={buttonClasses('primary', 'lg')}>
            <CalendarCheck className="h-5 w-5" aria-hidden="true" />
            Book a free consultation
          </Link>
          <Link href="/pricing-plans" className={buttonClasses('secondary', 'lg', 'border-white bg-white/10 text-white hover:bg-white/20')}>
            See our plans
          </Link>
        </div>
      </div>
      {showVideo && (
        <button
          type="button"
          onClick={() => setPaused((p) => !p)}
          className="absolute right-4 bottom-4 rounded-full bg-black/50 p-2.5 text-white ring-1 ring-white/30 hover:bg-black/70"
          aria-label={paused ? 'Play background video' : 'Pause background video'}
        >
          {paused ? <Play className="h-4 w-4" aria-hidden="true" /> : <Pause className="h-4 w-4" aria-hidden="true" />}
        </button>
      )}
    </section>
  );
}
