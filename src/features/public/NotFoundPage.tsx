import { Home } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../components/ui/Button';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Every unknown address. */
export default function NotFoundPage() {
  useDocumentTitle(
    'Page not found',
    'The page you are looking for does not exist. Head back to the home page to find diet plans and consultations.',
  );
  return (
    <section className="flex min-h-[70vh] items-center justify-center bg-slate-50 px-4 py-16">
      <div className="max-w-xl text-center">
        <img src="/images/not-found.svg" alt="" width={320} height={200} className="mx-auto h-auto w-64 sm:w-80" />
        <p className="mt-6 text-sm font-bold tracking-widest text-brand-700 uppercase">Error 404</p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
          Oops! The page you're looking for doesn't exist.
        </h1>
        <p className="mt-4 text-lg text-slate-600">It may have moved, or the link may have a typo.</p>
        <Link href="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
          <Home className="h-5 w-5" aria-hidden="true" />
          Go Back Home
        </Link>
      </div>
    </section>
  );
}
