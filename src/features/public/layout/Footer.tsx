import { Link } from 'wouter';
import { useSignedIn } from '../../../lib/use-session';
import { EXTERNAL, SITE } from '../../../site-config';
import { Logo } from './Logo';
import { SocialLinks } from './SocialIcons';

const linkClasses = 'rounded text-slate-300 hover:text-white hover:underline underline-offset-4';

/** Company and Explore/help groups, social links in new tabs, the copyright line. */
export function Footer() {
  const signedIn = useSignedIn();
  return (
    <footer className="bg-slate-950 text-slate-300" data-testid="site-footer">
      <div className="page-container grid grid-cols-2 gap-10 py-12 mdx:grid-cols-[1.5fr_1fr_1fr_1.2fr]">
        <div className="col-span-2 mdx:col-span-1">
          <Logo />
          <p className="mt-4 max-w-xs text-sm leading-relaxed text-slate-400">
            Personalised diet plans from certified dietitians, delivered online — for weight, hormones, blood sugar and everyday health.
          </p>
        </div>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-bold tracking-wider text-white uppercase">
            Company
          </h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <Link href="/about-us" className={linkClasses}>
                About us
              </Link>
            </li>
            <li>
              <Link href="/contact-us" className={linkClasses}>
                Contact Us
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-explore">
          <h2 id="footer-explore" className="text-sm font-bold tracking-wider text-white uppercase">
            Explore &amp; help
          </h2>
          <ul className="mt-4 space-y-3 text-sm">
            {signedIn && (
              <li>
                <Link href="/platform-guide" className={linkClasses}>
                  Guide
                </Link>
              </li>
            )}
            <li>
              <a href={SITE.recipesUrl} {...EXTERNAL} className={linkClasses}>
                Recipes<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
            <li>
              <Link href="/pricing-plans" className={linkClasses}>
                Pricing
              </Link>
            </li>
            <li>
              <Link href="/faq" className={linkClasses}>
                FAQ
              </Link>
            </li>
          </ul>
        </nav>
        <div className="col-span-2 mdx:col-span-1">
          <h2 className="text-sm font-bold tracking-wider text-white uppercase">Follow us</h2>
          <SocialLinks
            className="mt-4"
            linkClassName="flex h-10 w-10 items-center justify-center rounded-full bg-slate-800 text-slate-200 hover:bg-brand-700 hover:text-white"
          />
          <p className="mt-4 text-sm text-slate-400">
            <a href={`mailto:${SITE.email}`} className={linkClasses}>
              {SITE.email}
            </a>
          </p>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="page-container py-5 text-sm text-slate-400">© 2025 {SITE.brandName}. All rights reserved.</p>
      </div>
    </footer>
  );
}
