import type { ReactNode } from 'react';
import { CHAT_MESSAGES, chatLink, EXTERNAL, SITE } from '../../../site-config';

/** Simple line marks for the social networks (lucide has no brand icons), drawn on lucide's 24 px grid. */
function Glyph({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {children}
    </svg>
  );
}

type IconProps = { className?: string };

const FacebookIcon = (p: IconProps) => (
  <Glyph {...p}>
    <path d="M16 3.5h-2.5A3.5 3.5 0 0 0 10 7v3H7.5v3.5H10v7h3.5v-7H16l.5-3.5h-3V7.5c0-.5.4-1 1-1H16z" />
  </Glyph>
);
const InstagramIcon = (p: IconProps) => (
  <Glyph {...p}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <path d="M17.5 6.5h.01" />
  </Glyph>
);
const WhatsAppIcon = (p: IconProps) => (
  <Glyph {...p}>
    <path d="M3.5 20.5l1.4-4.2a8.5 8.5 0 1 1 3.1 3z" />
    <path d="M9 8.3c0 3.8 2.9 6.7 6.7 6.7l.9-1.4-2-1.1-.9.7a4.6 4.6 0 0 1-2.3-2.3l.7-.9-1.1-2z" />
  </Glyph>
);
const LinkedInIcon = (p: IconProps) => (
  <Glyph {...p}>
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M8 10.5V17M8 7.5v.01M12 17v-6.5M12 13.5a2.5 2.5 0 0 1 5 0V17" />
  </Glyph>
);
const YouTubeIcon = (p: IconProps) => (
  <Glyph {...p}>
    <rect x="2.5" y="5" width="19" height="14" rx="4" />
    <path d="M10 9.2l5 2.8-5 2.8z" fill="currentColor" />
  </Glyph>
);

export const SOCIAL_LINKS = [
  { name: 'Facebook', href: SITE.social.facebook, Icon: FacebookIcon },
  { name: 'Instagram', href: SITE.social.instagram, Icon: InstagramIcon },
  { name: 'WhatsApp', href: chatLink(CHAT_MESSAGES.instantMessage), Icon: WhatsAppIcon },
  { name: 'LinkedIn', href: SITE.social.linkedin, Icon: LinkedInIcon },
  { name: 'YouTube', href: SITE.social.youtube, Icon: YouTubeIcon },
] as const;

/** The five social links, each opening in a new tab. */
export function SocialLinks({ className = '', linkClassName = '' }: { className?: string; linkClassName?: string }) {
  return (
    <ul className={`flex flex-wrap gap-3 ${className}`}>
      {SOCIAL_LINKS.map(({ name, href, Icon }) => (
        <li key={name}>
          <a href={href} {...EXTERNAL} className={linkClassName} aria-label={`${name} (opens in a new tab)`}>
            <Icon className="h-5 w-5" />
          </a>
        </li>
      ))}
    </ul>
  );
}
