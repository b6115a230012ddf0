import { useLocation } from 'wouter';
import { Page } from '../../components/ui/Page';
import { IntakeForm } from './IntakeForm';

/** /dashboard/intake: the questionnaire, first after sign-in and later from the profile. */
export function IntakePage() {
  const [, navigate] = useLocation();
  return (
    <Page
      title="About you"
      documentTitle="Intake questionnaire"
      lead="Your dietitian reads this before writing your plan. It takes about five minutes; your answers are saved as you go."
      width="max-w-3xl"
    >
      <IntakeForm
        onFinished={() => {
          navigate('/progress');
          // The form is long: the next page opens at its top, not where Finish was pressed.
          window.scrollTo({ top: 0 });
        }}
      />
    </Page>
  );
}
