import { lazy, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { Spinner } from '../../components/Spinner';
import HomePage from './home/HomePage';
import { Footer } from './layout/Footer';
import { TopBar } from './layout/TopBar';
import { REDUCED_MOTION_QUERY } from './lib/use-media-query';
import './public.css';
import { HydrationMark } from '../../components/HydrationMark';
import { FORM_HOOKS, lazyWithData } from '../../lib/lazy-with-data';

// Home is the landing page and ships with this chunk; every other page is its own chunk.
const AboutPage = lazy(() => import('./about/AboutPage'));
const ContactPage = lazyWithData(() => import('./contact/ContactPage'), { before: FORM_HOOKS });
// Its booking form loads on demand, with the data layer (ConsultPage).
const ConsultPage = lazy(() => import('./consult/ConsultPage'));
const FaqPage = lazy(() => import('./faq/FaqPage'));
const PricingPage = lazy(() => import('./pricing/PricingPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));
// Owned by the auth work: they live in this layout but not in this folder.
const LoginPage = lazyWithData(() => import('../auth/LoginPage'), { before: FORM_HOOKS });
const ResetPasswordPage = lazyWithData(() => import('../auth/ResetPasswordPage'));
const PlatformGuidePage = lazyWithData(() => import('../auth/PlatformGuidePage'));
const ConfirmConsultationPage = lazyWithData(() => import('./consult/ConfirmConsultationPage'));

/** These pages scroll smoothly to the top when opened. */
const SMOOTH_SCROLL_PATHS = new Set(['/about-us', '/contact-us', '/faq']);

/**
 * A new page starts at its top (or at the anchor in the address, e.g.
 * /about-us#services, once that page has rendered it).
 */
function useScrollOnNavigate(path: string) {
  useEffect(() => {
    const reduced = window.matchMedia(REDUCED_MOTION_QUERY).matches;
    const behavior: ScrollBehavior = !reduced && SMOOTH_SCROLL_PATHS.has(path) ? 'smooth' : 'instant';
    if (window.location.hash) {
      const id = decodeURIComponent(window.location.hash.slice(1));
      let tries = 0;
      // Lazy pages render a moment later: look for the anchor for up to a second.
      const timer = window.setInterval(() => {
        const target = document.getElementById(id);
        if (target || ++tries > 20) {
          window.clearInterval(timer);
          if (target) target.scrollIntoView({ behavior: reduced ? 'instant' : 'smooth', block: 'start' });
        }
      }, 50);
      return () => window.clearInterval(timer);
    }
    window.scrollTo({ top: 0, behavior });
  }, [path]);
}

/** The public site: top bar, the page for the address, footer. */
export default function PublicArea() {
  const [path] = useLocation();
  useScrollOnNavigate(path);
  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900">
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 font-semibold text-brand-900 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <TopBar />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<Spinner fullPage label="Loading page" />}>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/about-us" component={AboutPage} />
            <Route path="/contact-us" component={ContactPage} />
            <Route path="/consult" component={ConsultPage} />
            <Route path="/faq" component={FaqPage} />
            <Route path="/pricing-plans" component={PricingPage} />
            <Route path="/login" component={LoginPage} />
            <Route path="/reset-password" component={ResetPasswordPage} />
            <Route path="/platform-guide" component={PlatformGuidePage} />
            <Route path="/confirm-consultation" component={ConfirmConsultationPage} />
            <Route component={NotFoundPage} />
          </Switch>
          <HydrationMark />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
