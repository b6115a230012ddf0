import { useQuery } from '@tanstack/react-query';
import { Page } from '../../../components/ui/Page';
import { LoadError, Loading } from '../../../components/ui/States';
import { useTRPC } from '../../../lib/trpc';
import { IntakeLinkCard } from '../../care-record/IntakeLinkCard';
import { DevicesCard } from './DevicesCard';
import { NotificationsCard } from './NotificationsCard';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';

/** The client's own details, password and signed-in devices. */
export function ProfilePage() {
  const trpc = useTRPC();
  const profile = useQuery({ ...trpc.profile.get.queryOptions(), staleTime: 0 });
  return (
    <Page title="My Profile" lead="Your details, your password, your notifications and the devices you are signed in on.">
      {profile.isPending ? (
        <Loading label="Loading your profile" />
      ) : profile.isError ? (
        <LoadError error={profile.error} onRetry={() => void profile.refetch()} />
      ) : (
        <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
          <div className="flex flex-col gap-5">
            <ProfileForm profile={profile.data} />
            <NotificationsCard />
          </div>
          <div className="flex flex-col gap-5">
            <IntakeLinkCard />
            <PasswordForm />
            <DevicesCard />
          </div>
        </div>
      )}
    </Page>
  );
}
