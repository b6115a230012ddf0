import { useQuery } from '@tanstack/react-query';
import { Mail, Phone } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { BRAND } from '../../../server/brand';
import { Loading } from '../../components/ui/States';
import { errorMessage } from '../../lib/errors';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CallNotice } from './CallNotice';
import { CallRoom } from './CallPage';
import { guestTransport } from './call-session';
import { createGuestClient, type GuestPass } from './guest-client';

const httpStatusOf = (error: unknown) => (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus ?? 500;
const reasonOf = (error: unknown) => (error as { data?: { details?: { reason?: string } | null } } | null)?.data?.details?.reason;

const NEXT_STEP: Record<string, string> = {
  invalid: 'Open the link from your booking mail again, or ask us to send it once more.',
  revoked: 'Ask us for the new link if you have not received it.',
  expired: 'To talk to a dietitian again, book another consultation or contact us.',
  cancelled: 'To choose another time, book again or contact us.',
};

/** A visitor's call, opened with her guest link: no account, the client's side of that one call. */
export function GuestCall({ pass }: { pass: GuestPass | null }) {
  if (!pass)
    return (
      <GuestRefusal
        status={404}
        message="This call link is not complete. Open it from your booking mail exactly as it came."
        reason="invalid"
      />
    );
  return <GuestCallOf pass={pass} />;
}

function GuestCallOf({ pass }: { pass: GuestPass }) {
  const guest = useMemo(() => createGuestClient(pass), [pass]);
  useEffect(() => () => void guest.close(), [guest]);
  const transport = useMemo(() => guestTransport(guest.client, pass), [guest, pass]);
  const info = useQuery({
    queryKey: ['calls.guest.get', pass],
    queryFn: () => guest.client.calls.guest.get.query({ pass }),
    retry: false,
    refetchInterval: (q) => (q.state.data?.state === 'open' || q.state.error ? false : 30_000),
  });
  if (info.isPending) return <Loading label="Loading your call" />;
  if (info.error)
    return <GuestRefusal status={httpStatusOf(info.error)} message={errorMessage(info.error)} reason={reasonOf(info.error)} />;
  return <CallRoom info={info.data} transport={transport} />;
}

function GuestRefusal({ status, message, reason }: { status: number; message: string; reason?: string }) {
  useDocumentTitle('Your consultation call');
  return (
    <CallNotice status={status} message={message}>
      <div className="flex flex-col items-center gap-3 text-slate-700" data-testid="guest-refusal" data-reason={reason ?? 'other'}>
        <p>{NEXT_STEP[reason ?? ''] ?? 'Contact us and we will help you join.'}</p>
        <div className="flex flex-wrap justify-center gap-3">
          <a
            href={`tel:${BRAND.phoneDisplay.replace(/\s+/g, '')}`}
            className="inline-flex min-h-11 items-center gap-2 font-medium text-brand-800 underline"
          >
            <Phone className="h-4 w-4" aria-hidden="true" /> {BRAND.phoneDisplay}
          </a>
          <a href={`mailto:${BRAND.supportEmail}`} className="inline-flex min-h-11 items-center gap-2 font-medium text-brand-800 underline">
            <Mail className="h-4 w-4" aria-hidden="true" /> {BRAND.supportEmail}
          </a>
        </div>
      </div>
    </CallNotice>
  );
}
