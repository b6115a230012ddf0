export function Spinner({ fullPage = false, label = 'Loading' }: { fullPage?: boolean; label?: string }) {
  const ring = (
    <span role="status" aria-live="polite" className="inline-flex items-center gap-2 text-brand-700">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-200 border-t-brand-700" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
  if (!fullPage) return ring;
  return <div className="flex min-h-[50vh] items-center justify-center">{ring}</div>;
}
