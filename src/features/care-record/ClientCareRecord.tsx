import { useQuery } from '@tanstack/react-query';
import { ACTIVITY_LEVELS, CONDITIONS, DIET_PATTERNS } from '../../../server/care-record/schema';
import { Card } from '../../components/ui/Card';
import { formatDay } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import { Badge, Facts, LoadError, Loading } from '../admin/ui';
import { DocumentsCard } from './DocumentsCard';
import { GoalsCard } from './GoalsCard';
import { MeasurementsCard } from './MeasurementsCard';
import { PhotosCard } from './PhotosCard';
import { useLiveCareRecord } from './use-live-care-record';

/** The care record on a client's console page: intake, goals and progress, measurements, photos, documents. */
export function ClientCareRecord({ clientId }: { clientId: number }) {
  useLiveCareRecord(clientId);
  return (
    <div className="mt-5 grid grid-cols-1 gap-5 lg:grid-cols-2" data-testid="client-care-record">
      <div className="lg:col-span-2">
        <IntakeCard clientId={clientId} />
      </div>
      <GoalsCard clientId={clientId} chart={false} />
      <DocumentsCard clientId={clientId} />
      {/* Photos side by side and the six measurement fields need the whole width (in a half card they overflowed). */}
      <div className="lg:col-span-2">
        <PhotosCard clientId={clientId} />
      </div>
      <div className="lg:col-span-2">
        <MeasurementsCard clientId={clientId} />
      </div>
    </div>
  );
}

const lines = (text: string | null) => (text ? <span className="whitespace-pre-line">{text}</span> : null);

function IntakeCard({ clientId }: { clientId: number }) {
  const trpc = useTRPC();
  const intake = useQuery(trpc.careRecord.intake.get.queryOptions({ clientId }));
  const state = intake.data?.state;
  return (
    <Card
      title="Intake questionnaire"
      actions={
        state === 'done' ? (
          <Badge tone="green">Done {formatDay(intake.data!.completedAt!.toISOString().slice(0, 10))}</Badge>
        ) : state ? (
          <Badge tone="amber">{state === 'in-progress' ? 'Intake in progress' : 'Intake missing'}</Badge>
        ) : null
      }
    >
      <div className="p-4 sm:p-5" data-testid="client-intake">
        {intake.isPending ? (
          <Loading label="Loading the intake" />
        ) : intake.isError ? (
          <LoadError error={intake.error} onRetry={() => void intake.refetch()} />
        ) : state === 'not-started' ? (
          <p className="text-slate-600">The client has not started the questionnaire yet; the dashboard asks them until it is done.</p>
        ) : (
          <Facts
            items={[
              [
                'Conditions',
                [...intake.data.answers.conditions.map((c) => CONDITIONS[c]), intake.data.answers.otherConditions]
                  .filter(Boolean)
                  .join(', ') || 'None',
              ],
              ['Medicines and supplements', lines(intake.data.answers.medicines)],
              ['Allergies and intolerances', lines(intake.data.answers.allergies)],
              ['Diet pattern', intake.data.answers.dietPattern ? DIET_PATTERNS[intake.data.answers.dietPattern] : null],
              ['Cuisine and region', intake.data.answers.cuisine],
              ['Activity level', intake.data.answers.activityLevel ? ACTIVITY_LEVELS[intake.data.answers.activityLevel] : null],
              ['Sleep', intake.data.answers.sleepHours !== null ? `${intake.data.answers.sleepHours} hours a night` : null],
              ['A typical day', lines(intake.data.answers.typicalDay)],
              ['Goals in their words', lines(intake.data.answers.goalsInWords)],
              ['Women’s health', lines(intake.data.answers.womensHealth)],
            ]}
          />
        )}
      </div>
    </Card>
  );
}
