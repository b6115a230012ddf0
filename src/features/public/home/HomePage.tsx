import { useDocumentTitle } from '../../../lib/use-document-title';
import { AiVersusExpert } from './AiVersusExpert';
import { ConnectCards } from './ConnectCards';
import { Courses } from './Courses';
import { FollowSocial } from './FollowSocial';
import { FreeTrialBanner } from './FreeTrialBanner';
import { Hero } from './Hero';
import { MeetFounder } from './MeetFounder';
import { StatsCounters } from './StatsCounters';
import { StoriesCarousel } from './StoriesCarousel';
import { Testimonials } from './Testimonials';
import { WhyChooseUs } from './WhyChooseUs';

/** The home sections in the spec's order, then the further blocks. */
export default function HomePage() {
  useDocumentTitle(
    '',
    'Personalised diet plans from certified dietitians, online: weight loss, weight gain, PCOD, thyroid, diabetes and more. Start with a free trial.',
  );
  return (
    <>
      <Hero />
      <FreeTrialBanner />
      <StatsCounters />
      <StoriesCarousel />
      <ConnectCards />
      <Courses />
      <AiVersusExpert />
      <WhyChooseUs />
      <Testimonials />
      <MeetFounder />
      <FollowSocial />
    </>
  );
}
