import { LogOut, type LucideIcon, Menu, MoreHorizontal, PanelLeftClose, UserRound } from 'lucide-react';
import { Tooltip } from 'radix-ui';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { LogoMark } from '../../features/public/layout/Logo';
import '../../styles/emoji.css';

/** A drawer link; `href` is relative to the area's nested router. */
export type ShellLink = { title: string; href: string; Icon: LucideIcon };

/** A count beside a link (unread messages, open invoices), with the words a screen reader says after it ('new' by default). */
export type LinkBadge = number | { count: number; label: string } | undefined;

const countOf = (badge: LinkBadge) => (typeof badge === 'number' ? badge : badge?.count) ?? 0;
const labelOf = (title: string, badge: LinkBadge) => {
  const count = countOf(badge);
  return count > 0 ? `${title}, ${count} ${typeof badge === 'object' ? badge.label : 'new'}` : title;
};

/** A count on a link or tab: a red pill, read out through the link's own name. */
function CountMark({ count, className, testId }: { count: number; className: string; testId: string }) {
  if (count <= 0) return null;
  return (
    <span className={`rounded-full bg-red-600 text-center font-bold text-white ${className}`} aria-hidden="true" data-testid={testId}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

const DESKTOP_QUERY = '(min-width: 768px)';
const isDesktop = () => typeof window !== 'undefined' && window.matchMedia(DESKTOP_QUERY).matches;

/**
 * The drawer is open on desktop and closed on phones, where the open drawer
 * covers the page: a navigation or Escape closes it.
 */
function useDrawer(location: string) {
  const [desktop, setDesktop] = useState(isDesktop);
  const [open, setOpen] = useState(isDesktop);

  useEffect(() => {
    const list = window.matchMedia(DESKTOP_QUERY);
    const onChange = () => {
      setDesktop(list.matches);
      setOpen(list.matches);
    };
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  useEffect(() => {
    if (!desktop) setOpen(false);
  }, [location]);
  useEffect(() => {
    if (desktop || !open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [desktop, open]);

  return { desktop, open, setOpen };
}

/**
 * The frame of a signed-in area (the client dashboard; the console
 * shares it): the teal top bar (brand, the user's name, Sign out) and the side
 * drawer, 240 px open and icons only (with tooltips) when collapsed, the
 * current link highlighted. On phones the drawer is hidden, so every card
 * gets the full width, and slides over the page when opened (closed by a
 * link, the backdrop or Escape).
 * `area` names the skip-link target and the test ids: `<area>-main`,
 * `<area>-drawer`, `<area>-user-name`.
 */
export function AppShell<L extends ShellLink>({
  area,
  navLabel,
  homeHref,
  brand,
  links,
  isCurrent,
  userName,
  onSignOut,
  contentWidth,
  badges,
  tabs,
  children,
}: {
  area: string;
  /** The drawer's accessible name. */
  navLabel: string;
  homeHref: string;
  /** What follows the logo in the home link. */
  brand: ReactNode;
  links: L[];
  isCurrent: (link: L, location: string) => boolean;
  userName: string;
  onSignOut: () => void;
  /** One content width for every page of the area, so titles never jump between pages. */
  contentWidth: string;
  /** Counts shown on links (unread messages, open invoices), by the link's href; 0 or none shows nothing. */
  badges?: Readonly<Record<string, LinkBadge>>;
  /**
   * Phones only: a bottom tab bar with these links (their counts from `badges`) and a last "More" tab
   * that opens the drawer with the rest. Without it the drawer is the phone's only navigation.
   */
  tabs?: readonly L[];
  children: ReactNode;
}) {
  const [location] = useLocation();
  const { desktop, open, setOpen } = useDrawer(location);
  const drawerId = useId();
  const mainId = `${area}-main`;
  const totalCount = links.reduce((sum, link) => sum + countOf(badges?.[link.href]), 0);

  return (
    <Tooltip.Provider delayDuration={200}>
      <div className="emoji-fallback min-h-screen bg-slate-50">
        <a
          href={`#${mainId}`}
          className="sr-only z-[1300] rounded-md bg-white px-3 py-2 text-brand-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <header className="fixed inset-x-0 top-0 z-[1100] flex h-16 items-center gap-2 bg-brand-700 px-2 text-white shadow-md sm:px-4 [&_:focus-visible]:outline-white">
          <button
            type="button"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={drawerId}
            aria-label={open ? 'Collapse navigation' : totalCount > 0 ? `Expand navigation, ${totalCount} new` : 'Expand navigation'}
            className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-full hover:bg-white/15"
          >
            {open ? <PanelLeftClose className="h-6 w-6" aria-hidden="true" /> : <Menu className="h-6 w-6" aria-hidden="true" />}
            {/* Closed, the drawer's counts would be out of sight: their sum sits on the button that opens it. */}
            {!open && (
              <CountMark
                count={totalCount}
                className="absolute top-0.5 right-0 min-w-4 px-1 text-[10px] leading-4 ring-2 ring-brand-700"
                testId="badge-menu"
              />
            )}
          </button>
          <Link href={homeHref} className="flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight">
            <LogoMark className="h-8 w-8 rounded-lg ring-1 ring-white/40" />
            {brand}
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-4">
            <span className="flex min-w-0 items-center gap-1.5 text-sm font-semibold sm:text-base" data-testid={`${area}-user-name`}>
              <UserRound className="hidden h-5 w-5 shrink-0 sm:block" aria-hidden="true" />
              <span className="truncate" title={userName}>
                {userName}
              </span>
            </span>
            <button
              type="button"
              onClick={onSignOut}
              className="flex min-h-11 shrink-0 items-center gap-1.5 rounded-lg border border-white/70 px-2.5 py-1.5 text-sm font-semibold hover:bg-white hover:text-brand-800 sm:px-3"
            >
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Sign out
            </button>
          </div>
        </header>

        {open && !desktop && (
          <button
            type="button"
            aria-label="Close navigation"
            tabIndex={-1}
            className="fixed inset-x-0 top-16 bottom-(--app-bottom-bar) z-[1040] bg-black/40"
            onClick={() => setOpen(false)}
          />
        )}
        <nav
          id={drawerId}
          aria-label={navLabel}
          data-state={open ? 'open' : 'collapsed'}
          data-testid={`${area}-drawer`}
          className={`fixed top-16 bottom-(--app-bottom-bar) left-0 z-[1050] w-60 overflow-x-hidden overflow-y-auto border-r border-slate-200 bg-white transition-[width,translate] duration-200 motion-reduce:transition-none ${
            open ? 'translate-x-0 shadow-xl md:shadow-none' : 'invisible -translate-x-full md:visible md:w-16 md:translate-x-0'
          }`}
        >
          <ul className="flex flex-col gap-1 p-2">
            {links.map((link) => {
              const current = isCurrent(link, location);
              const badge = badges?.[link.href];
              const count = countOf(badge);
              const label = labelOf(link.title, badge);
              // The count sits on the icon when the drawer is collapsed, at the row's end when it is open.
              const badgeMark = (
                <CountMark
                  count={count}
                  className={
                    open
                      ? 'ml-auto min-w-6 px-1.5 text-xs leading-5'
                      : 'absolute -top-1.5 -right-2 min-w-4 px-1 text-[10px] leading-4 ring-2 ring-white'
                  }
                  testId={`badge-${link.href.replace(/\W+/g, '') || 'home'}`}
                />
              );
              const item = (
                <Link
                  href={link.href}
                  aria-current={current ? 'page' : undefined}
                  aria-label={open && count === 0 ? undefined : label}
                  className={`flex h-11 items-center gap-3 rounded-lg px-2.5 text-[15px] font-medium whitespace-nowrap md:px-3 ${
                    current ? 'bg-brand-100 font-semibold text-brand-900' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
                  }`}
                >
                  <span className="relative shrink-0">
                    <link.Icon className={`h-5 w-5 ${current ? 'text-brand-700' : 'text-slate-500'}`} aria-hidden="true" />
                    {!open && badgeMark}
                  </span>
                  {open && <span>{link.title}</span>}
                  {/* A space between the title and its count, so the visible text ("Messages 1") is words of the name ("Messages, 1 new"). */}
                  {open && count > 0 && ' '}
                  {open && badgeMark}
                </Link>
              );
              return (
                <li key={link.href}>
                  {open ? (
                    item
                  ) : (
                    <Tooltip.Root>
                      <Tooltip.Trigger asChild>{item}</Tooltip.Trigger>
                      <Tooltip.Portal>
                        <Tooltip.Content
                          side="right"
                          sideOffset={8}
                          className="z-[1200] rounded-md bg-slate-900 px-2 py-1 text-sm text-white shadow"
                        >
                          {label}
                        </Tooltip.Content>
                      </Tooltip.Portal>
                    </Tooltip.Root>
                  )}
                </li>
              );
            })}
          </ul>
        </nav>

        <main
          id={mainId}
          tabIndex={-1}
          className={`min-h-screen pt-16 pb-(--app-bottom-bar) transition-[padding] duration-200 focus:outline-none ${open && desktop ? 'md:pl-60' : 'md:pl-16'}`}
        >
          <div className="px-4 py-5 sm:px-6 sm:py-8">
            <div className={`mx-auto w-full ${contentWidth}`} data-testid={`${area}-content`}>
              {children}
            </div>
          </div>
        </main>
        {tabs && (
          <TabBar
            tabs={tabs}
            isCurrent={(link) => isCurrent(link, location)}
            badges={badges}
            moreCount={links
              .filter((link) => !tabs.some((tab) => tab.href === link.href))
              .reduce((sum, link) => sum + countOf(badges?.[link.href]), 0)}
            drawerId={drawerId}
            drawerOpen={open}
            onMore={() => setOpen((o) => !o)}
          />
        )}
      </div>
    </Tooltip.Provider>
  );
}

/**
 * The phone's bottom tab bar (hidden from the drawer's breakpoint up, where the drawer stays open):
 * the daily screens with their live counts, then "More" for the drawer. Each tab is at least 44 px
 * high, clear of the home indicator (the safe area), and the current one is marked for assistive
 * technology with aria-current. Its height is --app-bottom-bar (styles.css), which the page, the
 * drawer, toasts and notices keep clear of.
 */
function TabBar<L extends ShellLink>({
  tabs,
  isCurrent,
  badges,
  moreCount,
  drawerId,
  drawerOpen,
  onMore,
}: {
  tabs: readonly L[];
  isCurrent: (link: L) => boolean;
  badges?: Readonly<Record<string, LinkBadge>>;
  moreCount: number;
  drawerId: string;
  drawerOpen: boolean;
  onMore: () => void;
}) {
  const currentTab = tabs.some(isCurrent);
  const tabClass = (active: boolean) =>
    `flex min-h-11 w-full min-w-0 flex-col items-center justify-center gap-0.5 pt-1.5 pb-1 text-[11px] leading-4 font-semibold tracking-tight ${
      active ? 'text-brand-800' : 'text-slate-700'
    }`;
  const icon = (Icon: LucideIcon, active: boolean, count: number, testId: string) => (
    <span className={`relative flex h-7 w-12 items-center justify-center rounded-full ${active ? 'bg-brand-100' : ''}`}>
      <Icon className={`h-5 w-5 ${active ? 'text-brand-700' : 'text-slate-600'}`} aria-hidden="true" />
      <CountMark count={count} className="absolute -top-1 right-0.5 min-w-4 px-1 text-[10px] leading-4 ring-2 ring-white" testId={testId} />
    </span>
  );
  return (
    <nav
      aria-label="Sections"
      data-app-tabbar=""
      data-testid="tab-bar"
      className="fixed inset-x-0 bottom-0 z-[1060] border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom,0px)] shadow-[0_-2px_8px_rgba(15,23,42,0.06)] md:hidden"
    >
      <ul className="flex h-16 items-stretch">
        {tabs.map((tab) => {
          const active = isCurrent(tab) && !drawerOpen;
          const badge = badges?.[tab.href];
          return (
            <li key={tab.href} className="flex min-w-0 flex-[1.2]">
              <Link
                href={tab.href}
                aria-current={isCurrent(tab) ? 'page' : undefined}
                aria-label={countOf(badge) > 0 ? labelOf(tab.title, badge) : undefined}
                className={tabClass(active)}
              >
                {icon(tab.Icon, active, countOf(badge), `tab-badge-${tab.href.replace(/\W+/g, '')}`)}
                <span className="max-w-full truncate">{tab.title}</span>
              </Link>
            </li>
          );
        })}
        <li className="flex min-w-0 flex-1">
          <button
            type="button"
            onClick={onMore}
            aria-expanded={drawerOpen}
            aria-controls={drawerId}
            aria-label={moreCount > 0 ? `More, ${moreCount} new` : 'More'}
            className={tabClass(drawerOpen || !currentTab)}
          >
            {icon(MoreHorizontal, drawerOpen || !currentTab, moreCount, 'tab-badge-more')}
            <span>More</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
