import { Page } from '../../components/ui/Page';
import { MyTargetsCard } from '../nutrition/targets/MyTargetsCard';
import { GoalsCard } from './GoalsCard';
import { MeasurementsCard } from './MeasurementsCard';
import { PhotosCard } from './PhotosCard';
import { useLiveCareRecord } from './use-live-care-record';

/** /dashboard/progress: goals with progress and the weight chart's target line, measurements over time, progress photos. */
export function ProgressPage() {
  useLiveCareRecord();
  return (
    <Page title="Goals & Progress" lead="Your goals, set with your dietitian, and how far you have come." width="max-w-4xl">
      <div className="flex flex-col gap-5">
        <GoalsCard />
        <MyTargetsCard />
        <MeasurementsCard />
        <PhotosCard />
      </div>
    </Page>
  );
}
