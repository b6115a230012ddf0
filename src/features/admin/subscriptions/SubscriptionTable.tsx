import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import type { AdminSubscription } from '../../../../server/subscription/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { fieldErrors } from '../../../lib/errors';
import { formatDay, formatRupees } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { Badge, Table, type Tone, td, th } from '../ui';

const STATUS_TONE: Record<AdminSubscription['status'], Tone> = { Active: 'green', Upcoming: 'blue', Ended: 'slate', Cancelled: 'red' };

export function SubscriptionTable({ items, showClient = true }: { items: AdminSubscription[]; showClient?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const expire = useMutation(trpc.admin.subscriptions.expire.mutationOptions());
  const [confirming, setConfirming] = useState<AdminSubscription | null>(null);
  const [renewing, setRenewing] = useState<AdminSubscription | null>(null);

  const onExpire = async (s: AdminSubscription) => {
    try {
      const answer = await overlay.run(expire.mutateAsync({ id: s.id }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      setConfirming(null);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <>
      <Table label="Subscriptions">
        <thead>
          <tr>
            {showClient && <th className={th}>Client</th>}
            <th className={th}>Plan</th>
            <th className={th}>Period</th>
            <th className={th}>List price</th>
            <th className={th}>Received</th>
            <th className={th}>Status</th>
            <th className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" data-testid="subscription-rows">
          {items.map((s) => (
            <tr key={s.id}>
              {showClient && (
                <td className={td}>
                  <Link href={`/clients/${s.client.id}`} className="font-semibold text-brand-800 hover:underline">
                    {s.client.fullName}
                  </Link>
                </td>
              )}
              <td className={td} data-label="Plan">
                {s.planName}
                <span className="block text-xs text-slate-500">{s.planType}</span>
              </td>
              <td className={`${td} whitespace-nowrap`} data-label="Period">
                {formatDay(s.startDate)} – {formatDay(s.endDate)}
              </td>
              <td className={td} data-label="List price">
                {formatRupees(s.listPrice)}
              </td>
              <td className={td} data-label="Received">
                {formatRupees(s.amountReceived)}
              </td>
              <td className={td} data-label="Status">
                <Badge tone={STATUS_TONE[s.status]}>{s.status}</Badge>
              </td>
              <td className={`${td} text-right whitespace-nowrap`}>
                <span className="inline-flex gap-2">
                  {!s.isExpired && (
                    <Button size="sm" variant="ghost" onClick={() => setConfirming(s)}>
                      Expire
                    </Button>
                  )}
                  <Button size="sm" variant="secondary" onClick={() => setRenewing(s)}>
                    Renew
                  </Button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Modal
        open={confirming !== null}
        onOpenChange={(o) => !o && setConfirming(null)}
        title="End this subscription now?"
        description={
          confirming
            ? `${confirming.planName} of ${confirming.client.fullName} will show as expired on their dashboard at once.`
            : undefined
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Keep it
            </Button>
            <Button variant="danger" onClick={() => confirming && void onExpire(confirming)}>
              End subscription
            </Button>
          </>
        }
      >
        {null}
      </Modal>
      <RenewDialog subscription={renewing} onClose={() => setRenewing(null)} />
    </>
  );
}

function RenewDialog({ subscription, onClose }: { subscription: AdminSubscription | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const renew = useMutation(trpc.admin.subscriptions.renew.mutationOptions());
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string>();

  const onRenew = async () => {
    if (!subscription) return;
    try {
      const answer = await overlay.run(renew.mutateAsync({ id: subscription.id, amountReceived: amount }));
      await queryClient.invalidateQueries(trpc.admin.pathFilter());
      toast.success(answer.message);
      setAmount('');
      setError(undefined);
      onClose();
    } catch (e) {
      setError(fieldErrors(e).amountReceived?.[0]);
      toastError(e);
    }
  };

  return (
    <Modal
      open={subscription !== null}
      onOpenChange={(o) => !o && onClose()}
      title="Renew subscription"
      description={
        subscription
          ? `Another period of ${subscription.planName} for ${subscription.client.fullName}, from the day after the current one ends (or today, if it has ended).`
          : undefined
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void onRenew()}>Renew</Button>
        </>
      }
    >
      <TextField label="Amount received (₹)" inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} error={error} />
    </Modal>
  );
}
