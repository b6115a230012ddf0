import { useId, useState } from 'react';
import { type BookedConsultation, consultationWhen, visitorWords } from '../../../../server/consultation/schema';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { viewerTimeZone } from '../../appointments/slots';
import { ConsultationForm } from './ConsultationForm';
import { VisitorNextSteps } from './VisitorNextSteps';

/**
 * 'Schedule Your Consultation'. The form lives inside the dialog's
 * content, which unmounts on close, so closing always resets it. Consult sits
 * in the dialog's footer (submitting the form through its id), so it stays on
 * screen, on a phone too, while the fields scroll. Once the request is in, the
 * dialog shows what became of it and what happens next (the same words as the
 * mail just sent), until the visitor closes it.
 */
export function ConsultationModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const formId = useId();
  const [booked, setBooked] = useState<BookedConsultation | null>(null);
  const close = (next: boolean) => {
    if (!next) setBooked(null);
    onOpenChange(next);
  };
  if (booked) {
    const screen = confirmationOf(booked);
    return (
      <Modal
        open={open}
        onOpenChange={close}
        title={screen.title}
        footer={
          <Button size="lg" className="w-full" onClick={() => close(false)}>
            Done
          </Button>
        }
      >
        {screen.body}
      </Modal>
    );
  }
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Schedule Your Consultation"
      description="Tell us a little about yourself and a dietitian will call you to plan your first steps. It’s free."
      footer={
        <Button type="submit" form={formId} size="lg" className="w-full">
          Consult
        </Button>
      }
    >
      <ConsultationForm id={formId} onBooked={setBooked} />
    </Modal>
  );
}

/** The confirmation screen of each outcome, in the visitor's own time zone (the one the form sent). */
function confirmationOf(booked: BookedConsultation) {
  const tz = viewerTimeZone();
  if (booked.outcome === 'repeat') {
    return {
      title: 'We already have your request',
      body: (
        <p className="text-slate-700" data-testid="visitor-lead">
          {booked.message}
        </p>
      ),
    };
  }
  const words =
    booked.outcome === 'held' && booked.time?.heldUntil
      ? visitorWords({ state: 'held', start: booked.time.start, heldUntil: booked.time.heldUntil, phone: booked.phone, tz })
      : booked.outcome === 'not-held' && booked.time
        ? visitorWords({ state: 'not-held', start: booked.time.start, phone: booked.phone, tz })
        : visitorWords({ state: 'callback', phone: booked.phone });
  const when = booked.outcome === 'held' && booked.time ? consultationWhen(booked.time.start, tz) : undefined;
  return {
    title: words.title,
    body: <VisitorNextSteps words={words} when={when} testId="booking-confirmation" />,
  };
}
