import { Modal } from '../../../components/ui/Modal';
import { ConsultationForm } from './ConsultationForm';

/**
 * Spec 2: 'Schedule Your Consultation'. The form lives inside the dialog's
 * content, which unmounts on close, so closing always resets it.
 */
export function ConsultationModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Schedule Your Consultation"
      description="Tell us a little about yourself and a dietitian will call you to plan your first steps. It’s free."
    >
      <ConsultationForm onBooked={() => onOpenChange(false)} />
    </Modal>
  );
}
