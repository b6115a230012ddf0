import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Logo } from './Logo';
import { MenuButton } from './MenuButton';

export const TOP_LINKS = [
  { label: 'Home', href: '/' },
  { label: 'About us', href: '/about-us' },
  { label: 'Book A Consultation', href: '/consult?book=true' },
  { label: 'Pricing Plans', href: '/pricing-plans' },
] as const;

/** True once the page has scrolled past `offset` pixels. */
function useScrolledPast(offset: number, enabled: boolean) {
  const [past, setPast] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const update = () => setPast(window.scrollY > offset);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [offset, enabled]);
  return enabled && past;
}

/**
 * Transparent and laid over the hero on the home page, dark elsewhere.
 * (Dashboard paths never render the public layout, so the bar is hidden there.)
 * On home it turns dark once the hero has scrolled away, so it stays readable.
 */
export function TopBar() {
  const [path] = useLocation();
  const overHero = path === '/';
  const scrolled = useScrolledPast(48, overHero);
  const transparent = overHero && !scrolled;

  // A link is current on its path whatever the query: /consult is "Book A Consultation" with or without ?book.
  const isCurrent = (href: string) => href.split('?')[0] === path;

  return (
    <header
      data-testid="top-bar"
      data-transparent={transparent ? 'true' : 'false'}
      className={`${overHero ? 'fixed' : 'sticky'} inset-x-0 top-0 z-50 transition-colors duration-300 ${
        transparent ? 'bg-gradient-to-b from-black/55 to-transparent' : 'bg-slate-900 shadow-lg shadow-black/10'
      }`}
    >
      <div className="page-container flex h-16 items-center justify-between gap-4">
        <Logo />
        <nav aria-label="Primary" className="hidden md:block">
          <ul className="flex items-center gap-1 lg:gap-2">
            {TOP_LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={isCurrent(link.href) ? 'page' : undefined}
                  className="rounded-md px-3 py-2 text-[15px] font-semibold text-white/90 hover:bg-white/10 hover:text-white aria-[current=page]:text-brand-300"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <MenuButton className="rounded-lg p-2 text-white hover:bg-white/10" />
      </div>
    </header>
  );
}
