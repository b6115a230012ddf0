/**
 * Reads one file out of a multipart/form-data body as it streams in, instead
 * of parsing the whole form first (a form of a few MB can hold hundreds of
 * thousands of tiny parts, and parsing them all blocks the event loop for
 * seconds). Every cost is bounded before it is paid: the number of parts, the
 * size of each part's headers, the file's bytes and the body's bytes. Only the
 * wanted file's bytes are kept; any other part is counted and dropped.
 */

export type MultipartRules = {
  /** The form field whose file is wanted (a second part of that name is refused). */
  field: string;
  maxParts: number;
  /** Bytes of one part's header block, and of the preamble before the first boundary. */
  maxHeaderBytes: number;
  maxFileBytes: number;
  maxBodyBytes: number;
};

export type MultipartRefusalReason =
  /** Not a well-formed form: no boundary, a bad header, or cut short. */
  | 'malformed'
  | 'too-many-parts'
  | 'headers-too-large'
  /** The wanted field appears twice. */
  | 'repeated-field'
  /** The file or the whole body passes its limit. */
  | 'too-large';

export class MultipartRefusal extends Error {
  constructor(readonly reason: MultipartRefusalReason) {
    super(`multipart form refused: ${reason}`);
  }
}

/** The wanted field: a file (it had a filename), text (no filename), or absent. */
export type WantedPart = { kind: 'file'; filename: string; bytes: Uint8Array } | { kind: 'text' } | { kind: 'absent' };

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  // RFC 2046: 1 to 70 characters, and never ending in a space.
  return boundary && !boundary.endsWith(' ') ? boundary : null;
}

type PartHeaders = { name: string; filename: string | undefined };

/** A Content-Disposition parameter value: quoted (browsers percent-encode ", CR and LF; curl backslash-escapes), a token, or RFC 8187's ext-value. */
function parameterValue(raw: string, extended: boolean): string {
  if (extended) {
    const ext = /^utf-8'[^']*'(.*)$/i.exec(raw);
    if (!ext) throw new MultipartRefusal('malformed');
    try {
      return decodeURIComponent(ext[1]!);
    } catch {
      throw new MultipartRefusal('malformed');
    }
  }
  if (!raw.startsWith('"')) return raw;
  return raw.slice(1, -1).replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

function parseHeaders(block: Buffer): PartHeaders {
  let name: string | undefined;
  let filename: string | undefined;
  let extendedFilename = false;
  for (const line of block.toString('utf8').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartRefusal('malformed');
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^form-data\s*(;|$)/i.test(value)) throw new MultipartRefusal('malformed');
    name = undefined;
    filename = undefined;
    const params = /;\s*([^\s=;*]+)(\*?)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
    for (let m = params.exec(value); m; m = params.exec(value)) {
      const key = m[1]!.toLowerCase();
      const extended = m[2] === '*';
      const text = parameterValue(m[3]!.trim(), extended);
      if (key === 'name' && !extended) name = text;
      else if (key === 'filename' && (extended || !extendedFilename)) {
        filename = text;
        extendedFilename ||= extended;
      }
    }
  }
  if (name === undefined) throw new MultipartRefusal('malformed');
  return { name, filename };
}

/**
 * Reads the whole body from `reader` (to its end: nothing is left unread on
 * success) and answers the wanted field. Throws MultipartRefusal as soon as a
 * rule is broken, leaving the rest of the body unread for the caller to
 * discard.
 */
export async function readWantedPart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
  rules: MultipartRules,
): Promise<WantedPart> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter has no CRLF before it: pretend it had one.
  let buf: Buffer = Buffer.from(CRLF);
  let bodyBytes = 0;
  let ended = false;
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'epilogue' = 'preamble';
  let preambleBytes = 0;
  let parts = 0;
  let wanted: WantedPart = { kind: 'absent' };
  let collecting: { filename: string; chunks: Buffer[]; size: number } | null = null;

  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      return false;
    }
    bodyBytes += value.byteLength;
    if (bodyBytes > rules.maxBodyBytes) throw new MultipartRefusal('too-large');
    // Nothing of the epilogue is kept, and a part's data is handed on as it comes: buf stays small.
    buf = state === 'epilogue' ? buf : buf.length === 0 ? Buffer.from(value) : Buffer.concat([buf, value]);
    return true;
  };
  const keep = (data: Buffer) => {
    if (!collecting || data.length === 0) return;
    collecting.size += data.length;
    if (collecting.size > rules.maxFileBytes) throw new MultipartRefusal('too-large');
    collecting.chunks.push(data);
  };

  for (;;) {
    if (state === 'epilogue') {
      if (!(await more())) return wanted;
      continue;
    }
    if (state === 'preamble') {
      const at = buf.indexOf(delimiter);
      if (at >= 0) {
        preambleBytes += at;
        buf = buf.subarray(at + delimiter.length);
        state = 'after-delimiter';
      } else {
        const drop = Math.max(0, buf.length - (delimiter.length - 1));
        preambleBytes += drop;
        buf = buf.subarray(drop);
        if (!(await more())) throw new MultipartRefusal('malformed');
      }
      if (preambleBytes > rules.maxHeaderBytes) throw new MultipartRefusal('headers-too-large');
      continue;
    }
    if (state === 'after-delimiter') {
      // "--" closes the form; otherwise optional padding, then CRLF and a part's headers.
      let pad = 0;
      while (buf[pad] === 0x20 || buf[pad] === 0x09) pad += 1;
      if (pad > rules.maxHeaderBytes) throw new MultipartRefusal('headers-too-large');
      if (buf.length < pad + 2) {
        if (!(await more())) throw new MultipartRefusal('malformed');
        continue;
      }
      if (pad === 0 && buf[0] === 0x2d && buf[1] === 0x2d) {
        state = 'epilogue';
        buf = Buffer.alloc(0);
        continue;
      }
      if (buf[pad] !== 0x0d || buf[pad + 1] !== 0x0a) throw new MultipartRefusal('malformed');
      parts += 1;
      if (parts > rules.maxParts) throw new MultipartRefusal('too-many-parts');
      buf = buf.subarray(pad + 2);
      state = 'headers';
      continue;
    }
    if (state === 'headers') {
      // A part without headers has no name: not a form field.
      if (buf[0] === 0x0d && buf[1] === 0x0a) throw new MultipartRefusal('malformed');
      const end = buf.indexOf(HEADER_END);
      if (end > rules.maxHeaderBytes || (end < 0 && buf.length > rules.maxHeaderBytes + HEADER_END.length)) {
        throw new MultipartRefusal('headers-too-large');
      }
      if (end < 0) {
        if (!(await more())) throw new MultipartRefusal('malformed');
        continue;
      }
      const headers = parseHeaders(buf.subarray(0, end));
      buf = buf.subarray(end + HEADER_END.length);
      if (headers.name === rules.field) {
        if (wanted.kind !== 'absent') throw new MultipartRefusal('repeated-field');
        if (headers.filename === undefined) wanted = { kind: 'text' };
        else collecting = { filename: headers.filename, chunks: [], size: 0 };
      }
      state = 'body';
      continue;
    }
    // state === 'body': the part's data runs to the next delimiter.
    const at = buf.indexOf(delimiter);
    if (at >= 0) {
      keep(buf.subarray(0, at));
      if (collecting) wanted = { kind: 'file', filename: collecting.filename, bytes: new Uint8Array(Buffer.concat(collecting.chunks)) };
      collecting = null;
      buf = buf.subarray(at + delimiter.length);
      state = 'after-delimiter';
      continue;
    }
    // All but the last few bytes (which may start a delimiter) are this part's.
    const safe = Math.max(0, buf.length - (delimiter.length - 1));
    keep(buf.subarray(0, safe));
    buf = buf.subarray(safe);
    if (!(await more())) throw new MultipartRefusal('malformed');
  }
}
