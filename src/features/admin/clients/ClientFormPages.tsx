import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Info } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import type { ClientFormValues } from '../../../../server/users/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Card } from '../../../components/ui/Card';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { LoadError, Loading, Page } from '../ui';
import { ClientForm } from './ClientForm';

const BackTo = ({ href, children }: { href: string; children: string }) => (
  <Link href={href} className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-800 hover:underline">
    <ArrowLeft className="h-4 w-4" aria-hidden="true" />
    {children}
  </Link>
);

/** Add a client; with ?booking=ID the form starts from that consultation request. */
export function NewClientPage() {
  const trpc = useTRPC();
  const bookingId = Number(new URLSearchParams(useSearch()).get('booking')) || undefined;
  const booking = useQuery({ ...trpc.admin.bookings.get.queryOptions({ id: bookingId ?? 0 }), enabled: bookingId !== undefined });
  return (
    <Page
      title="Add a client"
      lead="The client gets an email with a link to set a password."
      width="max-w-3xl"
      before={<BackTo href="/clients">Clients</BackTo>}
    >
      {bookingId !== undefined && booking.isPending ? (
        <Loading label="Loading the booking" />
      ) : bookingId !== undefined && booking.isError ? (
        <LoadError error={booking.error} onRetry={() => void booking.refetch()} />
      ) : (
        <CreateClient bookingId={bookingId} defaults={booking.data?.prefill ?? {}} bookingHeight={booking.data?.height} />
      )}
    </Page>
  );
}

function CreateClient({ bookingId, defaults, bookingHeight }: { bookingId?: number; defaults: object; bookingHeight?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const create = useMutation(trpc.admin.clients.create.mutationOptions());
  const [serverError, setServerError] = useState<unknown>();

  const onSubmit = async (values: ClientFormValues) => {
    try {
      const created = await overlay.run(create.mutateAsync({ ...values, bookingId }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(created.message);
      navigate(`/clients/${created.id}`);
    } catch (error) {
      setServerError(error);
      toastError(error);
    }
  };

  return (
    <Card>
      <div className="p-4 sm:p-6">
        <ClientForm
          defaults={defaults}
          submitLabel={bookingId ? 'Create client from booking' : 'Create client'}
          onSubmit={onSubmit}
          serverError={serverError}
          aside={
            bookingId ? (
              <p className="flex items-start gap-2 rounded-xl bg-brand-50 p-3 text-sm text-brand-900" data-testid="booking-prefill-note">
                <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                <span>
                  Filled in from booking #{bookingId}
                  {bookingHeight ? ` (height given as "${bookingHeight}" ft)` : ''}. Check the details; saving marks the booking converted.
                </span>
              </p>
            ) : undefined
          }
        />
      </div>
    </Card>
  );
}

export function EditClientPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const id = Number(useParams<{ id: string }>().id);
  const client = useQuery(trpc.admin.clients.get.queryOptions({ id }));
  const update = useMutation(trpc.admin.clients.update.mutationOptions());
  const [serverError, setServerError] = useState<unknown>();

  const onSubmit = async (values: ClientFormValues) => {
    try {
      const answer = await overlay.run(update.mutateAsync({ ...values, id }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      navigate(`/clients/${id}`);
    } catch (error) {
      setServerError(error);
      toastError(error);
    }
  };

  return (
    <Page title="Edit client" width="max-w-3xl" before={<BackTo href={`/clients/${id}`}>Back to the client</BackTo>}>
      {client.isPending ? (
        <Loading label="Loading the client" />
      ) : client.isError ? (
        <LoadError error={client.error} onRetry={() => void client.refetch()} />
      ) : (
        <Card>
          <div className="p-4 sm:p-6">
            <ClientForm defaults={client.data} submitLabel="Save changes" onSubmit={onSubmit} serverError={serverError} />
          </div>
        </Card>
      )}
    </Page>
  );
}
