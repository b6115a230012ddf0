import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect, useState } from 'react';
import { toast } from '../../lib/toast';
import { Link, useLocation } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { isHandled } from '../../lib/auth-client';
import { session } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedIn } from '../../lib/use-session';
import { SITE } from '../../site-config';
import { GUIDE_PHONE_SHOT, GUIDE_SHOT, GUIDE_STEPS, guideImage } from './guide-steps';

export const NO_PERMISSION = 'You do not have the necessary permissions to access this page.';

/**
 * The guide, for an authorised user only; anyone else
 * goes back to / with the permission toast. It is a step-by-step walk through
 * the dashboard with screenshots of the real app (made by
 * `npm run guide:screenshots` from the demo data); a video plays above the
 * steps only when a media address is configured (src/site-config.ts).
 */
export default function PlatformGuidePage() {
  useDocumentTitle('Platform Guide', 'A step-by-step guide to the Poshan dashboard, with screenshots.');
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
    <section className="bg-slate-50 py-10 sm:py-14" aria-labelledby="guide-title">
      <div className="page-container">
        <h1 id="guide-title" className="text-3xl font-bold text-slate-900 sm:text-4xl">
          Platform Guide
        </h1>
        <p className="mt-2 max-w-2xl text-lg text-slate-600">
          Your dashboard in {GUIDE_STEPS.length} steps: where your plans are, how to log your weight and how to keep us up to date.
        </p>
        {videoUrl && !videoFailed && (
          <div className="mt-8 overflow-hidden rounded-2xl bg-black shadow-xl ring-1 ring-slate-200">
            {/* biome-ignore lint/a11y/useMediaCaption: the written steps below carry the same content as the video */}
            <video
              className="aspect-video w-full bg-black"
              controls
              preload="metadata"
              playsInline
              poster={guideImage(GUIDE_STEPS[1]!)}
              onError={() => setVideoFailed(true)}
              data-testid="guide-video"
            >
              {/* A video that cannot load leaves the steps on their own, with nothing broken on screen. */}
              <source src={videoUrl} type="video/mp4" onError={() => setVideoFailed(true)} />
            </video>
          </div>
        )}
        <ol className="mt-10 flex flex-col gap-10 sm:gap-14" data-testid="guide-steps">
          {GUIDE_STEPS.map((step, i) => (
            <li key={step.id} className="grid items-center gap-5 lg:grid-cols-[2fr_3fr] lg:gap-10">
              <div>
                <span
                  className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 text-base font-bold text-white"
                  aria-hidden="true"
                >
                  {i + 1}
                </span>
                <h2 className="mt-3 text-xl font-bold text-slate-900 sm:text-2xl">
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.title}
                </h2>
                <p className="mt-2 text-slate-700 sm:text-lg">{step.text}</p>
              </div>
              <figure className="overflow-hidden rounded-xl bg-white shadow-lg ring-1 ring-slate-200 max-sm:mx-auto max-sm:max-w-sm">
                {/* A phone shows the phone's screen; wider windows the desktop's. */}
                <picture>
                  <source
                    media="(max-width: 639px)"
                    srcSet={guideImage(step, 'phone')}
                    width={GUIDE_PHONE_SHOT.width}
                    height={GUIDE_PHONE_SHOT.height}
                  />
                  <img
                    src={guideImage(step)}
                    alt={step.alt}
                    width={GUIDE_SHOT.width}
                    height={GUIDE_SHOT.height}
                    loading={i < 2 ? 'eager' : 'lazy'}
                    decoding="async"
                    className="h-auto w-full"
                  />
                </picture>
              </figure>
            </li>
          ))}
        </ol>
        <div className="mt-12">
          <Link href="~/dashboard/feeds" className={buttonClasses('primary', 'lg')}>
            Go to your dashboard
          </Link>
        </div>
      </div>
    </section>
  );
}
