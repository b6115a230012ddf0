import { LogIn } from 'lucide-react';
import { Link, useParams, useRoute, useSearch } from 'wouter';
import { HydrationMark } from '../../components/HydrationMark';
import { buttonClasses } from '../../components/ui/Button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSignedIn } from '../../lib/use-session';
import { CallPage } from './CallPage';
import { CallNotice } from './CallNotice';
import { GuestCall } from './GuestCall';
import { guestPassFrom } from './guest-client';

/**
 * The lazy chunk for /call/{id}: an appointment's call, for its
 * client and the dietitians. Signed out, it asks to sign in first. A
 * visitor's guest link, /call/guest/{id}?v=&exp=&sig=, opens her call
 * without an account.
 */
export default function CallArea() {
  const [isGuest, guestParams] = useRoute<{ id: string }>('/call/guest/:id');
  const search = useSearch();
  if (isGuest)
    return (
      <div className="min-h-screen bg-slate-100">
        <GuestCall pass={guestPassFrom(guestParams.id, search)} />
        <HydrationMark />
      </div>
    );
  return <MemberCallArea />;
}

function MemberCallArea() {
  const params = useParams<{ id: string }>();
  const signedIn = useSignedIn();
  const id = /^\d{1,9}$/.test(params.id ?? '') ? Number(params.id) : null;
  return (
    <div className="min-h-screen bg-slate-100">
      {!signedIn ? (
        <SignInFirst />
      ) : id === null ? (
        <CallNotice status={404} message="There is no such call." />
      ) : (
        <CallPage appointmentId={id} />
      )}
      <HydrationMark />
    </div>
  );
}

function SignInFirst() {
  useDocumentTitle('Sign in to join the call');
  return (
    <CallNotice status={401} message="Sign in to join your call.">
      <div className="flex flex-wrap justify-center gap-3">
        <Link href="~/login" className={buttonClasses('primary')}>
          <LogIn className="h-5 w-5" aria-hidden="true" />
          Sign in
        </Link>
        <Link href="~/admin/login" className={buttonClasses('secondary')}>
          Dietitian sign-in
        </Link>
      </div>
    </CallNotice>
  );
}
