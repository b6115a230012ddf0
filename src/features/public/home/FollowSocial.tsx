import { SITE } from '../../../site-config';
import { SOCIAL_LINKS } from '../layout/SocialIcons';

/** The follow-on-social block: every network in a new tab. */
export function FollowSocial() {
  return (
    <section aria-labelledby="social-title" className="bg-brand-900 py-14 text-white">
      <div className="page-container flex flex-col items-center gap-8 text-center">
        <div>
          <h2 id="social-title" className="text-3xl font-extrabold tracking-tight">
            Follow {SITE.brandName}
          </h2>
          <p className="mt-3 text-lg text-brand-100">Recipes, myth-busting and everyday tips from our dietitians, every week.</p>
        </div>
        <ul className="flex flex-wrap justify-center gap-3">
          {SOCIAL_LINKS.map(({ name, href, Icon }) => (
            <li key={name}>
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-2 rounded-full bg-white/10 px-5 py-2.5 font-semibold ring-1 ring-white/25 hover:bg-white hover:text-brand-900"
              >
                <Icon className="h-5 w-5" />
                {name}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
