import { BookOpen, CalendarCheck, CircleHelp, LayoutDashboard, LogIn, LogOut, Mail, ReceiptText, Users, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ComponentType, RefObject } from 'react';
import { Link } from 'wouter';
import { useSignedIn } from '../../../lib/use-session';
import { useSignOut } from '../../../lib/use-sign-out';
import { MOBILE_QUERY, useMediaQuery } from '../lib/use-media-query';
import { LogoMark } from './Logo';

type MenuLink = { label: string; href: string; Icon: ComponentType<{ className?: string }> };

/**
 * The main menu depends on the session (Go to Dashboard or Login;
 * Guide only when signed in) and, on phones (≤ 767 px, where the top bar's
 * links are hidden), is extended with About Us, Pricing Plans and Book a
 * Consultation. The secondary menu is FAQ, plus Sign out when signed in.
 */
export function mainMenu(signedIn: boolean, mobile: boolean): MenuLink[] {
  const items: MenuLink[] = [
    signedIn
      ? { label: 'Go to Dashboard', href: '/dashboard/feeds', Icon: LayoutDashboard }
      : { label: 'Login', href: '/login', Icon: LogIn },
    { label: 'Contact us', href: '/contact-us', Icon: Mail },
  ];
  if (signedIn) items.push({ label: 'Guide', href: '/platform-guide', Icon: BookOpen });
  if (mobile) {
    items.push(
      { label: 'About Us', href: '/about-us', Icon: Users },
      { label: 'Pricing Plans', href: '/pricing-plans', Icon: ReceiptText },
      { label: 'Book a Consultation', href: '/consult?book=true', Icon: CalendarCheck },
    );
  }
  return items;
}

const itemClasses =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-base font-medium text-slate-800 hover:bg-brand-50 hover:text-brand-900';

/**
 * The right-hand site menu: 250 px wide, opened by the top bar's menu button.
 * Its own chunk (with Radix Dialog), loaded when the button is first used.
 */
export default function SiteDrawer({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Focus goes back here when the drawer closes (the menu button). */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const signedIn = useSignedIn();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const signOut = useSignOut();
  const close = () => onOpenChange(false);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[1100] bg-black/50 data-[state=open]:animate-[fade-in_300ms_ease-out]" />
        <Dialog.Content
          className="fixed inset-y-0 right-0 z-[1101] flex w-[250px] flex-col overflow-y-auto bg-white shadow-2xl focus:outline-none data-[state=open]:animate-[drawer-in_250ms_ease-out]"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          data-testid="site-drawer"
          data-variant={`${signedIn ? 'signed-in' : 'signed-out'}${mobile ? '-mobile' : ''}`}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <Dialog.Title className="flex items-center gap-2 text-lg font-bold text-brand-900">
              <LogoMark className="h-7 w-7" />
              Menu
            </Dialog.Title>
            <Dialog.Close className="rounded-full p-1.5 text-slate-700 hover:bg-slate-100" aria-label="Close menu">
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Site navigation</Dialog.Description>
          <nav aria-label="Main menu" className="px-2 py-3">
            <ul className="flex flex-col gap-1">
              {mainMenu(signedIn, mobile).map(({ label, href, Icon }) => (
                <li key={href}>
                  <Link href={href} className={itemClasses} onClick={close}>
                    <Icon className="h-5 w-5 text-brand-700" aria-hidden="true" />
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label="Secondary menu" className="mt-auto border-t border-slate-200 px-2 py-3">
            <ul className="flex flex-col gap-1">
              <li>
                <Link href="/faq" className={itemClasses} onClick={close}>
                  <CircleHelp className="h-5 w-5 text-brand-700" aria-hidden="true" />
                  FAQ
                </Link>
              </li>
              {signedIn && (
                <li>
                  <button
                    type="button"
                    className={itemClasses}
                    onClick={() => {
                      close();
                      void signOut();
                    }}
                  >
                    <LogOut className="h-5 w-5 text-brand-700" aria-hidden="true" />
                    Sign out
                  </button>
                </li>
              )}
            </ul>
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
