import { useEffect, useState } from 'react';

/**
 * The UPI link as a QR code, drawn in the browser (qrcode loads in its own
 * chunk, only on the page that shows one). Any UPI app scans it.
 */
export function UpiQr({ link, label }: { link: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then((QRCode) =>
      QRCode.toDataURL(link, { errorCorrectionLevel: 'M', margin: 2, width: 240 }).then((url) => {
        if (live) setSrc(url);
      }),
    );
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <div className="flex h-[200px] w-[200px] items-center justify-center rounded-lg border border-slate-200 bg-white p-1">
      {src ? (
        <img src={src} width={192} height={192} alt={label} data-testid="upi-qr" />
      ) : (
        <span className="text-sm text-slate-500">Drawing the QR code…</span>
      )}
    </div>
  );
}
