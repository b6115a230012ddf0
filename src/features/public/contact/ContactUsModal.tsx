import { Link } from 'wouter';
import { Button } from '../../../components/ui/Button';
import { Modal, ModalClose } from '../../../components/ui/Modal';
import { ContactDetails } from './ContactDetails';

/** Opened by a connect-us card without a link; closes by the close icon, the Close button or a click outside. */
export default function ContactUsModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Contact Us"
      description="Talk to a dietitian today. Call, message or email us — whichever suits you."
      footer={
        <ModalClose asChild>
          <Button variant="secondary">Close</Button>
        </ModalClose>
      }
    >
      <ContactDetails compact />
      <p className="mt-4 text-sm text-slate-600">
        Prefer to write?{' '}
        <Link href="/contact-us" className="font-semibold text-brand-800 underline underline-offset-4" onClick={() => onOpenChange(false)}>
          Send us a message
        </Link>
        .
      </p>
    </Modal>
  );
}
