import {
  Activity,
  BookOpen,
  CalendarClock,
  ClipboardCheck,
  CreditCard,
  FileText,
  FolderOpen,
  IndianRupee,
  MessageCircle,
  Newspaper,
  Scale,
  Star,
  Target,
  UserRound,
  UtensilsCrossed,
} from 'lucide-react';
import type { ShellLink } from '../../components/shell/AppShell';

/** `also`: sub-pages that keep this link highlighted. */
export type DashboardLink = ShellLink & { also?: string[] };

/** The drawer's links, in the spec's order, relative to /dashboard. */
export const DASHBOARD_LINKS: DashboardLink[] = [
  { title: 'Feeds', href: '/feeds', Icon: Newspaper },
  { title: 'Messages', href: '/messages', Icon: MessageCircle },
  { title: 'Meal Journal', href: '/journal', Icon: UtensilsCrossed },
  { title: 'My Diet Plans', href: '/diet-plan', Icon: FileText },
  { title: 'Update Weight', href: '/update-weight', Icon: Scale, also: ['/weight-history'] },
  { title: 'Check-in', href: '/check-in', Icon: ClipboardCheck },
  { title: 'Appointments', href: '/appointments', Icon: CalendarClock },
  { title: 'Goals & Progress', href: '/progress', Icon: Target },
  { title: 'Documents', href: '/documents', Icon: FolderOpen },
  { title: 'Write a Review', href: '/write-review', Icon: Star },
  { title: 'Active Subscription', href: '/active-subscription', Icon: CreditCard },
  { title: 'Payments', href: '/payments', Icon: IndianRupee },
  { title: 'Check BMI', href: '/check-bmi', Icon: Activity },
  { title: 'My Profile', href: '/profile', Icon: UserRound },
  // The guide lives outside the dashboard ('~/' leaves the nested router).
  { title: 'Platform Guide', href: '~/platform-guide', Icon: BookOpen },
];

/** The phone's tab bar: the screens of a client's day, the rest under "More" (the drawer). */
const TAB_HREFS = ['/messages', '/journal', '/appointments', '/diet-plan'];
const TAB_TITLES: Record<string, string> = { '/journal': 'Journal', '/diet-plan': 'Plan' };
export const DASHBOARD_TABS: DashboardLink[] = TAB_HREFS.map((href) => {
  const link = DASHBOARD_LINKS.find((l) => l.href === href) as DashboardLink;
  return { ...link, title: TAB_TITLES[href] ?? link.title };
});

export function isCurrent(link: DashboardLink, location: string): boolean {
  const path = location.replace(/\/+$/, '') || '/';
  return path === link.href || (link.also ?? []).includes(path);
}
