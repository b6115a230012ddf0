import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, Smartphone } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { formatMoment } from '../../../../server/format';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { LoadError, Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { lastActiveLabel } from './last-active';

const isPhone = (browser: string) => /Android|iOS/.test(browser);

/** Rows of one browser name read alike: each gets a short mark of its sign-in, the same one on every screen. */
const signInMark = (id: string) => id.replace(/-/g, '').slice(0, 6).toUpperCase();

/** The sign-ins that are still live, this one first-class; any other can be signed out here. */
export function DevicesCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const devices = useQuery({ ...trpc.auth.devices.queryOptions(), staleTime: 0 });
  const signOut = useMutation(trpc.auth.signOutDevice.mutationOptions());

  const onSignOut = async (id: string) => {
    try {
      const answer = await overlay.run(signOut.mutateAsync({ id }));
      toast.success(answer.message);
    } catch (error) {
      toastError(error);
    } finally {
      void queryClient.invalidateQueries({ queryKey: trpc.auth.devices.queryKey() });
    }
  };

  return (
    <Card title="Signed-in devices">
      {devices.isPending ? (
        <Loading label="Loading your devices" />
      ) : devices.isError ? (
        <LoadError error={devices.error} onRetry={() => void devices.refetch()} />
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="devices">
          {devices.data.map((device) => {
            const sameBrowser = devices.data.filter((d) => d.browser === device.browser).length > 1;
            const Icon = isPhone(device.browser) ? Smartphone : Laptop;
            return (
              <li key={device.id} className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5">
                <Icon className="h-6 w-6 shrink-0 text-slate-500" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-slate-900">
                    {device.browser}
                    {device.current && (
                      <span className="ml-2 inline-block rounded-full whitespace-nowrap bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
                        This device
                      </span>
                    )}
                  </p>
                  {sameBrowser && <p className="text-sm text-slate-600">Sign-in {signInMark(device.id)}</p>}
                  <p className="text-sm text-slate-600">Signed in {formatMoment(device.signedInAt)}</p>
                  <p className="text-sm text-slate-600" data-testid="device-last-active">
                    <time dateTime={device.lastActiveAt.toISOString()} title={formatMoment(device.lastActiveAt)}>
                      {lastActiveLabel(device.lastActiveAt, device.current)}
                    </time>
                  </p>
                </div>
                {!device.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => void onSignOut(device.id)}
                    aria-label={`Sign out ${device.browser}${sameBrowser ? ` (sign-in ${signInMark(device.id)})` : ''}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
