import { Award, CalendarDays, GraduationCap, Laptop, MessageCircle } from 'lucide-react';
import { CHAT_MESSAGES, chatLink } from '../../../site-config';
import { ExternalLink } from '../components/ExternalLink';
import { SectionHeading } from '../components/SectionHeading';
import { COURSES } from '../content';

/** Three online certification courses; enrolling opens a chat asking about them. */
export function Courses() {
  return (
    <section aria-labelledby="courses-title" className="bg-brand-50 py-16 md:py-20">
      <div className="page-container">
        <SectionHeading
          id="courses-title"
          eyebrow="Certifications & courses"
          title="Learn nutrition from practising dietitians"
          lead="Turn an interest in food and health into a profession, with courses built on the cases our team sees every day."
        />
        <ul className="mt-8 flex flex-wrap justify-center gap-3 text-sm font-semibold text-brand-900">
          <li className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 ring-1 ring-brand-200">
            <Laptop className="h-4 w-4" aria-hidden="true" />
            100% online
          </li>
          <li className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 ring-1 ring-brand-200">
            <CalendarDays className="h-4 w-4" aria-hidden="true" />
            Weekday batches (Mon-Fri) or weekends only
          </li>
          <li className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 ring-1 ring-brand-200">
            <Award className="h-4 w-4" aria-hidden="true" />
            Certificate on completion
          </li>
        </ul>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {COURSES.map((course) => (
            <li key={course.id} className="flex flex-col rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-700 text-white">
                <GraduationCap className="h-6 w-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-xl font-bold text-slate-900">{course.title}</h3>
              <p className="mt-1 text-sm font-semibold text-brand-800">{course.duration}</p>
              <p className="mt-3 flex-1 text-slate-600">{course.desc}</p>
            </li>
          ))}
        </ul>
        <div className="mt-10 text-center">
          <ExternalLink
            href={chatLink(CHAT_MESSAGES.courses)}
            className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-6 py-3 text-lg font-bold text-white shadow hover:bg-brand-800"
          >
            <MessageCircle className="h-5 w-5" aria-hidden="true" />
            Enrol now
          </ExternalLink>
        </div>
      </div>
    </section>
  );
}
