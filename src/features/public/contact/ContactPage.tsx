import { useSignedIn } from '../../../lib/use-session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PageHeader } from '../components/PageHeader';
import { ContactDetails } from './ContactDetails';
import { SupportForm } from './SupportForm';

/** The support form plus the ways to reach us. */
export default function ContactPage() {
  const signedIn = useSignedIn();
  useDocumentTitle(
    'Contact Us',
    'Questions about a plan, a payment or your progress? Send us a message or call, WhatsApp or email our team.',
  );
  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="Contact Us"
        lead="Questions about a plan, your progress or a payment? Write to us and a member of the team will get back to you within one working day."
      />
      <section aria-labelledby="contact-form-title" className="bg-slate-50 py-14 md:py-20">
        <div className="page-container grid gap-10 mdx:grid-cols-[3fr_2fr]">
          <div className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
            <h2 id="contact-form-title" className="text-2xl font-extrabold text-slate-900">
              Send us a message
            </h2>
            <p className="mt-2 mb-6 text-slate-600">
              {signedIn
                ? 'You are signed in, so we will reply to the email address on your account.'
                : 'Tell us who you are and how we can help.'}
            </p>
            <SupportForm />
          </div>
          <div>
            <h2 className="mb-4 text-2xl font-extrabold text-slate-900">Other ways to reach us</h2>
            <ContactDetails />
          </div>
        </div>
      </section>
    </>
  );
}
