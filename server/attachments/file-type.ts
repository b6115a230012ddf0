/**
 * What a file is, decided from its first bytes (its "magic number"), never
 * from its name or the type the browser declared (decision 112).
 */
export type AcceptedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

export type Sniffed = { kind: 'accepted'; type: AcceptedType } | { kind: 'refused'; what: string };

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');

export function sniffType(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'accepted', type: 'image/jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'accepted', type: 'image/png' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { kind: 'accepted', type: 'image/webp' };
  if (ascii(bytes, 0, 5) === '%PDF-') return { kind: 'accepted', type: 'application/pdf' };
  // ISO media (HEIC, AVIF): 'ftyp' at byte 4, then the brand.
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return { kind: 'refused', what: 'a HEIC photo' };
    return { kind: 'refused', what: `a ${brand.trim() || 'media'} file` };
  }
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return { kind: 'refused', what: 'a GIF image' };
  const head = ascii(bytes, 0, 512)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return { kind: 'refused', what: 'an SVG image' };
  if (/^<(!doctype html|html|head|body|script|iframe|div|p\b|a\b)/.test(head)) return { kind: 'refused', what: 'an HTML page' };
  return { kind: 'refused', what: 'a file of a type we do not take' };
}

/** The extensions a name may end with for each type; a name without one is fine. */
export const EXTENSIONS: Record<AcceptedType, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
};

export const TYPE_LABEL: Record<AcceptedType, string> = {
  'image/jpeg': 'a JPEG photo',
  'image/png': 'a PNG image',
  'image/webp': 'a WebP image',
  'application/pdf': 'a PDF',
};

/**
 * The name's extension, lower-cased, when it has one that looks like a file
 * type ("scan.PDF" → "pdf"); "report 12.05.2026" has none.
 */
export function extensionOf(name: string): string | null {
  const match = /\.([A-Za-z][A-Za-z0-9]{0,5})$/.exec(name);
  return match ? match[1]!.toLowerCase() : null;
}

/** True when the name's extension says the file is something other than what its bytes are. */
export function nameContradicts(name: string, type: AcceptedType): boolean {
  const ext = extensionOf(name);
  return ext !== null && !EXTENSIONS[type].includes(ext);
}

/** A PDF ends with an end-of-file marker, within its last kilobyte (after any trailing whitespace or junk). */
export function looksLikeWholePdf(bytes: Uint8Array): boolean {
  return ascii(bytes, Math.max(0, bytes.length - 1024), bytes.length).includes('%%EOF');
}
