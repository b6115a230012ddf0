import { useId } from 'react';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { ConsultationForm } from './ConsultationForm';

/**
 * 'Schedule Your Consultation'. The form lives inside the dialog's
 * content, which unmounts on close, so closing always resets it. Consult sits
 * in the dialog's footer (submitting the form through its id), so it stays on
 * screen, on a phone too, while the fields scroll.
 */
export function ConsultationModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const formId = useId();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Schedule Your Consultation"
      description="Tell us a little about yourself and a dietitian will call you to plan your first steps. It’s free."
      footer={
        <Button type="submit" form={formId} size="lg" className="w-full">
          Consult
        </Button>
      }
    >
      <ConsultationForm id={formId} onBooked={() => onOpenChange(false)} />
    </Modal>
  );
}
