import {
  CalendarClock,
  CalendarDays,
  ClipboardCheck,
  ClipboardList,
  CreditCard,
  FileText,
  IndianRupee,
  LayoutDashboard,
  LifeBuoy,
  Mail,
  MessageCircle,
  Newspaper,
  Salad,
  Star,
  Users,
} from 'lucide-react';
import type { ShellLink } from '../../components/shell/AppShell';

/** The console's drawer, relative to /admin. */
export const ADMIN_LINKS: ShellLink[] = [
  { title: 'Overview', href: '/', Icon: LayoutDashboard },
  { title: 'Messages', href: '/messages', Icon: MessageCircle },
  { title: 'Clients', href: '/clients', Icon: Users },
  { title: 'Follow-ups', href: '/follow-ups', Icon: ClipboardCheck },
  { title: 'Appointments', href: '/appointments', Icon: CalendarDays },
  { title: 'Feed', href: '/feed', Icon: Newspaper },
  { title: 'Diet plans', href: '/diet-plans', Icon: FileText },
  { title: 'Foods', href: '/foods', Icon: Salad },
  { title: 'Subscriptions', href: '/subscriptions', Icon: CreditCard },
  { title: 'Payments', href: '/payments', Icon: IndianRupee },
  { title: 'Bookings', href: '/bookings', Icon: CalendarClock },
  { title: 'Support', href: '/support', Icon: LifeBuoy },
  { title: 'Reviews', href: '/reviews', Icon: Star },
  { title: 'Outbox', href: '/outbox', Icon: Mail },
  { title: 'Audit log', href: '/audit', Icon: ClipboardList },
];

/** A link stays highlighted on its sub-pages (/clients/12 under Clients). */
export function isCurrent(link: ShellLink, location: string): boolean {
  const path = location.replace(/\/+$/, '') || '/';
  return link.href === '/' ? path === '/' : path === link.href || path.startsWith(`${link.href}/`);
}
