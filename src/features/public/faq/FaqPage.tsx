import { ChevronDown } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/Button';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeader } from '../components/PageHeader';
import { FAQ_ITEMS } from './faq-items';

/**
 * Six questions, one open at a time (Radix Accordion, type single:
 * arrow keys, Home and End move between questions), two columns on wide screens.
 */
export default function FaqPage() {
  useDocumentTitle(
    'FAQ',
    'Answers about plan prices, the free trial, cancellations, follow-ups, the 1-year plan, Easy EMI and pausing your diet.',
  );
  return (
    <>
      <PageHeader
        eyebrow="Help"
        title="Frequently Asked Questions"
        lead="Everything you wanted to know about our plans, the free trial and how follow-ups work."
      />
      <section aria-label="Questions and answers" className="bg-slate-50 py-14 md:py-20">
        <Accordion.Root type="single" collapsible className="page-container grid items-start gap-4 lg:grid-cols-2" data-testid="faq">
          {FAQ_ITEMS.map((item) => (
            <Accordion.Item
              key={item.id}
              value={item.panel}
              className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
            >
              <Accordion.Header asChild>
                <h2>
                  <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 px-6 py-5 text-left text-lg font-bold text-slate-900 hover:bg-brand-50 data-[state=open]:text-brand-800">
                    {item.question}
                    <ChevronDown
                      className="h-5 w-5 shrink-0 text-brand-700 transition-transform duration-200 group-data-[state=open]:rotate-180"
                      aria-hidden="true"
                    />
                  </Accordion.Trigger>
                </h2>
              </Accordion.Header>
              <Accordion.Content className="px-6 pb-6 leading-relaxed text-slate-700">{item.answer}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
        <div className="mx-auto mt-12 max-w-2xl rounded-3xl bg-white p-8 text-center ring-1 ring-slate-200">
          <h2 className="text-2xl font-extrabold text-slate-900">Still have a question?</h2>
          <p className="mt-2 text-slate-600">Our team is happy to help — or talk it through in a free consultation.</p>
          <div className="mt-6 flex flex-col justify-center gap-3 xs:flex-row">
            <Link href="/contact-us" className={buttonClasses('secondary', 'md')}>
              Contact us
            </Link>
            <Link href="/consult?book=true" className={buttonClasses('primary', 'md')}>
              Book a free consultation
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
