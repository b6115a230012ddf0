import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import type { DietPlanDetail } from '../../../../server/diet-plan/schema';
import type { ComposedDietPlan } from '../../../../server/diet-plan/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Modal } from '../../../components/ui/Modal';
import { fieldErrors } from '../../../lib/errors';
import { localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { ClientChoice, type PickedClient, useClientChoice } from '../clients/ClientPicker';
import { openPdf } from '../format';
import { LoadError, Loading, Page, Segmented } from '../ui';
import { blankPlan, ComposeForm } from './ComposeForm';
import { UploadForm, type UploadValues } from './UploadForm';

type Mode = 'compose' | 'upload';
const MODES = [
  { value: 'compose', label: 'Compose days × meals' },
  { value: 'upload', label: 'Upload a PDF' },
] as const;

/** /diet-plans/new?client=ID&mode=compose|upload, and /diet-plans/:id/edit (saving makes a new version). */
export function DietPlanEditorPage() {
  const trpc = useTRPC();
  const params = useParams<{ id?: string }>();
  const search = new URLSearchParams(useSearch());
  const planId = params.id ? Number(params.id) : undefined;
  const clientId = Number(search.get('client')) || undefined;
  const plan = useQuery({ ...trpc.admin.dietPlans.get.queryOptions({ id: planId ?? 0 }), enabled: planId !== undefined, staleTime: 0 });
  const client = useQuery({
    ...trpc.admin.clients.get.queryOptions({ id: clientId ?? 0 }),
    enabled: planId === undefined && clientId !== undefined,
  });

  const title = planId ? 'Edit diet plan' : 'New diet plan';
  const back = (
    <Link
      href={planId ? `/diet-plans/${planId}` : clientId ? `/clients/${clientId}` : '/diet-plans'}
      className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      Back
    </Link>
  );
  const loading = (planId !== undefined && plan.isPending) || (planId === undefined && clientId !== undefined && client.isPending);
  const error = plan.error ?? client.error;
  return (
    <Page
      title={title}
      before={back}
      width="max-w-5xl"
      lead={planId ? 'Saving makes a new version; the client sees the newest one.' : undefined}
    >
      {loading ? (
        <Loading label="Loading" />
      ) : error ? (
        <LoadError error={error} onRetry={() => void (planId ? plan.refetch() : client.refetch())} />
      ) : (
        <Editor
          existing={plan.data}
          initialClient={
            plan.data
              ? plan.data.client
              : client.data
                ? { id: client.data.id, fullName: client.data.fullName, email: client.data.email }
                : undefined
          }
          initialMode={(plan.data?.source === 'upload' ? 'upload' : (search.get('mode') as Mode | null)) ?? 'compose'}
        />
      )}
    </Page>
  );
}

type Existing = DietPlanDetail;

function Editor({ existing, initialClient, initialMode }: { existing?: Existing; initialClient?: PickedClient; initialMode: Mode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const clientChoice = useClientChoice(initialClient);
  const [mode, setMode] = useState<Mode>(initialMode === 'upload' ? 'upload' : 'compose');
  const compose = useMutation(trpc.admin.dietPlans.compose.mutationOptions());
  const upload = useMutation(trpc.admin.dietPlans.upload.mutationOptions());
  const revise = useMutation(trpc.admin.dietPlans.revise.mutationOptions());
  const preview = useMutation(trpc.admin.dietPlans.preview.mutationOptions());

  /** A save the server held back for the dietitian to confirm, with its reasons. */
  const [toConfirm, setToConfirm] = useState<{ warnings: string[]; save: () => Promise<void> }>();

  const needClient = () => clientChoice.required('Choose the client this plan is for');

  /** Saves; when the plan looks like a mistake the server answers with warnings, shown for the dietitian to confirm. */
  const saved = async (save: (acknowledgeWarnings: boolean) => Promise<{ id: number; message: string }>, acknowledged = false) => {
    try {
      const answer = await overlay.run(save(acknowledged));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      navigate(`/diet-plans/${answer.id}`);
    } catch (error) {
      const warnings = fieldErrors(error).acknowledgeWarnings;
      if (warnings && !acknowledged) setToConfirm({ warnings, save: () => saved(save, true) });
      else toastError(error);
    }
  };

  const onCompose = async (plan: ComposedDietPlan) => {
    const c = needClient();
    if (!c) return;
    await saved((acknowledgeWarnings) =>
      existing
        ? revise.mutateAsync({ source: 'composed', id: existing.id, expectedVersion: existing.version, plan, acknowledgeWarnings })
        : compose.mutateAsync({ clientId: c.id, plan, acknowledgeWarnings }),
    );
  };

  const onPreview = async (plan: ComposedDietPlan) => {
    const c = needClient();
    if (!c) return;
    // Opened now, while the click still counts as the user's: browsers block tabs opened after a wait.
    const win = window.open('', '_blank');
    try {
      const pdf = await overlay.run(preview.mutateAsync({ clientId: c.id, plan }));
      openPdf(pdf.base64, win);
    } catch (error) {
      win?.close();
      toastError(error);
    }
  };

  const onUpload = async (values: UploadValues) => {
    const c = needClient();
    if (!c) return;
    await saved((acknowledgeWarnings) =>
      existing
        ? revise.mutateAsync({ source: 'upload', id: existing.id, expectedVersion: existing.version, ...values, acknowledgeWarnings })
        : upload.mutateAsync({
            clientId: c.id,
            title: values.title,
            from: values.from,
            to: values.to,
            pdfBase64: values.pdfBase64 ?? '',
            acknowledgeWarnings,
          }),
    );
  };

  const today = localToday();
  const composeDefaults = existing?.content ?? {
    ...blankPlan(today),
    ...(existing ? { title: existing.title, from: existing.from, to: existing.to } : {}),
  };
  return (
    <Card>
      <div className="flex flex-col gap-5 p-4 sm:p-6">
        <ClientChoice
          choice={clientChoice}
          fixed={
            existing && (
              <>
                For <strong>{existing.client.fullName}</strong> · editing version {existing.version}
              </>
            )
          }
        />
        <Segmented label="How to make the plan" value={mode} options={MODES} onChange={setMode} />
        {mode === 'compose' ? (
          <ComposeForm
            defaults={composeDefaults}
            clientId={existing?.client.id ?? clientChoice.client?.id}
            saveLabel={existing ? 'Save new version' : 'Save and render PDF'}
            onSave={onCompose}
            onPreview={onPreview}
          />
        ) : (
          <UploadForm
            defaults={{ title: existing?.title ?? 'Diet plan', from: existing?.from ?? today, to: existing?.to ?? today }}
            fileOptional={existing?.source === 'upload'}
            saveLabel={existing ? 'Save new version' : 'Upload plan'}
            onSave={onUpload}
          />
        )}
      </div>
      <Modal
        open={toConfirm !== undefined}
        onOpenChange={(open) => {
          if (!open) setToConfirm(undefined);
        }}
        title="Save this plan?"
        description="Please check before the client sees it:"
        footer={
          <>
            <Button variant="secondary" onClick={() => setToConfirm(undefined)}>
              Go back and edit
            </Button>
            <Button
              onClick={() => {
                const confirmed = toConfirm;
                setToConfirm(undefined);
                void confirmed?.save();
              }}
            >
              Save anyway
            </Button>
          </>
        }
      >
        <ul className="flex flex-col gap-3" data-testid="plan-warnings">
          {toConfirm?.warnings.map((warning) => (
            <li key={warning} className="flex gap-2 text-sm text-slate-800">
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" aria-hidden="true" />
              <span>{warning}</span>
            </li>
          ))}
        </ul>
      </Modal>
    </Card>
  );
}
