import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { VideoOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Link, useLocation } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { isHandled } from '../../lib/auth-client';
import { session } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedIn } from '../../lib/use-session';
import { SITE } from '../../site-config';
import posterUrl from './platform-guide-poster.svg';

export const NO_PERMISSION = 'You do not have the necessary permissions to access this page.';

const STEPS = [
  { title: 'Feeds', text: 'Tips, recipes and news from your dietitians appear here live. Like a post to tell them it helped.' },
  { title: 'My Diet Plans', text: 'Each plan your dietitian prepares is listed with its dates. Download PDF opens it in a new tab.' },
  { title: 'Update Weight', text: 'Log your weight once a week. See Weight History shows the trend on a chart with your latest BMI.' },
  { title: 'Check BMI', text: 'Enter your height in metres and your weight in kilograms to see where you are on the scale.' },
  { title: 'Active Subscription', text: 'Your plan, what you paid and the dates it runs between.' },
  { title: 'Write a Review', text: 'Tell us how it is going. Your rating helps other people choose.' },
];

/**
 * Spec 2 and 4: the guide video, for an authorised user only; anyone else
 * goes back to / with the permission toast.
 */
export default function PlatformGuidePage() {
  useDocumentTitle('Platform Guide', 'A short video on using the Poshan dashboard.');
  const signedIn = useSignedIn();
  const [, navigate] = useLocation();

  useEffect(() => {
    if (signedIn) return;
    toast.error(NO_PERMISSION, { id: 'guide-permission' });
    navigate('~/', { replace: true });
  }, [signedIn, navigate]);

  if (!signedIn) return null;
  return <Guide />;
}

function Guide() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const [videoFailed, setVideoFailed] = useState(false);
  const videoUrl = SITE.videos.guide;
  const check = useQuery({ ...trpc.auth.checkAuthorization.queryOptions(), staleTime: 0, retry: false });

  useEffect(() => {
    const error = check.error;
    if (!error || isHandled(error)) return;
    const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
    if (status === 401 || status === 403) {
      session.clear();
      toast.error(NO_PERMISSION, { id: 'guide-permission' });
      navigate('~/', { replace: true });
    }
  }, [check.error, navigate]);

  return (
    <section className="bg-slate-50 px-4 py-10 sm:py-14">
      <div className="mx-auto max-w-5xl">
        <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Platform Guide</h1>
        <p className="mt-2 max-w-2xl text-slate-600">
          A short walk through your dashboard: where to find your plans, how to log your weight and how to reach us.
        </p>
        <div className="mt-6 overflow-hidden rounded-2xl bg-black shadow-xl ring-1 ring-slate-200">
          {videoUrl && !videoFailed ? (
            // biome-ignore lint/a11y/useMediaCaption: the guide has no spoken-word captions yet; the written steps below carry the same content
            <video
              className="aspect-video w-full bg-black"
              controls
              preload="metadata"
              playsInline
              poster={posterUrl}
              onError={() => setVideoFailed(true)}
              data-testid="guide-video"
            >
              <source src={videoUrl} type="video/mp4" onError={() => setVideoFailed(true)} />
            </video>
          ) : (
            <div className="relative aspect-video" data-testid="guide-video-unavailable">
              <img src={posterUrl} alt="Poshan Platform Guide" className="absolute inset-0 h-full w-full object-cover" />
              <div
                className="absolute inset-x-0 bottom-0 flex flex-wrap items-center gap-x-4 gap-y-2 bg-black/70 px-4 py-3 text-sm text-white sm:text-base"
                role="status"
              >
                <VideoOff className="h-5 w-5 shrink-0 text-brand-200" aria-hidden="true" />
                <p className="flex-1">
                  {videoUrl ? 'The guide video could not be loaded right now.' : 'The guide video is not available yet.'} The steps below
                  cover the same ground.
                </p>
                {videoUrl && (
                  <button
                    type="button"
                    onClick={() => setVideoFailed(false)}
                    className="rounded-lg border border-white/70 px-3 py-1.5 text-sm font-semibold hover:bg-white hover:text-brand-900"
                  >
                    Try again
                  </button>
                )}
              </div>
            </div>
          )}
        </div>
        <h2 className="mt-10 text-xl font-bold text-slate-900">In this guide</h2>
        <ol className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="rounded-2xl border border-slate-200 bg-white p-5">
              <span
                className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
                aria-hidden="true"
              >
                {i + 1}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-8">
          <Link href="~/dashboard/feeds" className={buttonClasses('primary', 'lg')}>
            Go to your dashboard
          </Link>
        </div>
      </div>
    </section>
  );
}
