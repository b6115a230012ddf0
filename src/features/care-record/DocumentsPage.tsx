import { Page } from '../../components/ui/Page';
import { DocumentsCard } from './DocumentsCard';
import { useLiveCareRecord } from './use-live-care-record';

/** /dashboard/documents: lab reports and prescriptions, and the files sent in messages. */
export function DocumentsPage() {
  useLiveCareRecord();
  return (
    <Page
      title="Documents"
      lead="Lab reports and prescriptions for your dietitian, and every file sent in your messages."
      width="max-w-4xl"
    >
      <DocumentsCard />
    </Page>
  );
}
