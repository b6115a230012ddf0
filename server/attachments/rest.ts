import type { Context as HonoContext } from 'hono';
import type { AppDeps } from '../deps.js';
import { AppError, badRequest, unauthorized } from '../errors.js';
import { discardRest } from '../http/discard-body.js';
import {
  MultipartRefusal,
  type MultipartRefusalReason,
  type MultipartRules,
  multipartBoundary,
  readWantedPart,
  type WantedPart,
} from '../http/multipart.js';
import { defineRoutes, type RestInput, type RestRoute } from '../rest/route.js';
import { ATTACHMENT_BODY_LIMIT, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_MB } from './limits.js';
import { attachmentIdParams, attachmentView, signedLinkQuery } from './schema.js';
import { openAttachment, refuseOverLimits, type UploadDeps, uploadAttachment } from './service.js';
import type { Variant } from './signed-url.js';

/**
 * Files are binary, so these routes read and answer bytes themselves (as the diet-plan PDF does)
 * instead of going through a JSON procedure; every rule is in service.ts (decision 112).
 */
export const uploadDeps = (deps: AppDeps): UploadDeps => ({
  db: deps.db,
  storage: deps.storage,
  logger: deps.logger,
  clock: deps.clock,
  limits: { uploads: deps.config.rateLimits.uploads, dailyBytes: deps.config.uploadDailyBytes },
});

const NOT_MULTIPART = 'Send the file as multipart/form-data, in a form field named "file".';
/** The file and a few fields around it: any form a browser or app makes for one photo has fewer parts. */
export const MAX_FORM_PARTS = 4;
const FORM_RULES: MultipartRules = {
  field: 'file',
  maxParts: MAX_FORM_PARTS,
  maxHeaderBytes: 8 * 1024,
  maxFileBytes: MAX_ATTACHMENT_BYTES,
  maxBodyBytes: ATTACHMENT_BODY_LIMIT,
};

function refusal(reason: MultipartRefusalReason) {
  const fieldError = (message: string) => badRequest(message, { file: [message] });
  switch (reason) {
    case 'too-large': {
      const message = `The file is too large: at most ${MAX_ATTACHMENT_MB} MB is accepted.`;
      return new AppError('PAYLOAD_TOO_LARGE', message, { fieldErrors: { file: [message] } });
    }
    case 'too-many-parts':
      return fieldError(`The form has more than ${MAX_FORM_PARTS} parts. Send one file, in a form field named "file".`);
    case 'repeated-field':
      return fieldError('Send one file per upload.');
    case 'headers-too-large':
      return fieldError('A part of the form has headers too long to read. Send the file again, in a form field named "file".');
    case 'malformed':
      return badRequest('The form could not be read (it may have been cut short). Please send the file again.', { file: [NOT_MULTIPART] });
  }
}

/**
 * The one file of the form, read as it streams in. A form that breaks a rule
 * is refused as soon as it does (the rest of it read and dropped, within
 * bounds, then the connection closed), so a form of many parts costs no more
 * than one of a few.
 */
async function uploadedFile(c: HonoContext, boundary: string): Promise<{ name: string; bytes: Uint8Array }> {
  const body = c.req.raw.body;
  if (!body) throw badRequest(NOT_MULTIPART, { file: [NOT_MULTIPART] });
  const reader = body.getReader();
  let part: WantedPart;
  try {
    part = await readWantedPart(reader, boundary, FORM_RULES);
  } catch (err) {
    // A body that fails as it is read (the client went away) is a form cut short.
    if (!(err instanceof MultipartRefusal)) throw refusal('malformed');
    await discardRest(reader);
    c.header('Connection', 'close');
    throw refusal(err.reason);
  }
  if (part.kind !== 'file') {
    const message = 'Choose a file to upload (a form field named "file").';
    throw badRequest(message, { file: [message] });
  }
  return { name: part.filename, bytes: part.bytes };
}

/** At least this much of a body of known length is the file (the rest is the form around it). */
function smallestFileIn(c: HonoContext): number {
  const declared = Number.parseInt(c.req.header('content-length') ?? '', 10);
  return Number.isFinite(declared) ? Math.max(1, declared - (ATTACHMENT_BODY_LIMIT - MAX_ATTACHMENT_BYTES)) : 1;
}

/** Attachment names may hold any script: the header carries an ASCII fallback and the UTF-8 name (RFC 6266). */
function contentDisposition(kind: 'inline' | 'attachment', name: string) {
  const fallback = name.replace(/[^\x20-\x7E]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function download({ ctx, params, query }: RestInput, variant: Variant) {
  const access = ctx.user
    ? { viewer: ctx.user }
    : query.exp !== undefined || query.sig !== undefined
      ? { link: { exp: query.exp, sig: query.sig } }
      : null;
  if (!access) throw unauthorized('Sign in, or open the file through the link the app gives you.');
  const { row, object, contentType } = await openAttachment(ctx.deps, access, params.id ?? '', variant);
  const pdf = contentType === 'application/pdf';
  const name = variant === 'thumbnail' ? `${row.name.replace(/\.[A-Za-z0-9]{1,6}$/, '')}-preview.webp` : row.name;
  const response = new Response(object.body, {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'Content-Length': String(object.size),
      // Never sniffed into something else, never run as a page: a PDF is always saved, an image shown as an image.
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      'Content-Disposition': contentDisposition(pdf ? 'attachment' : 'inline', name),
      'Cross-Origin-Resource-Policy': 'same-origin',
      // Health files (photos, reports): never kept in the browser's cache, where the next person on a shared computer would find them.
      'Cache-Control': 'private, no-store',
    },
  });
  return { message: 'File', response };
}

const DOWNLOAD_ERRORS = {
  401: 'Neither a bearer token nor a signed link (exp and sig) was given.',
  403: 'The file belongs to another client’s record, or the signed link has expired or is not valid.',
  404: 'There is no file with this id (or no thumbnail: only photos have one).',
};

const FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

export const attachmentRoutes: RestRoute[] = defineRoutes([
  {
    method: 'post',
    path: '/attachments',
    summary:
      `Uploads one photo (JPEG, PNG or WebP) or PDF of at most ${MAX_ATTACHMENT_MB} MB, to attach to a message within a day ` +
      '(unused uploads are deleted after a day). The type is read from the bytes, never from the name; a photo is re-encoded ' +
      '(turned upright, every bit of metadata such as EXIF and GPS removed) and given a thumbnail; the original is not kept.',
    tag: 'Attachments',
    auth: 'required',
    request: { files: { file: `The photo or PDF (at most ${MAX_ATTACHMENT_MB} MB)` } },
    response: attachmentView,
    successStatus: 201,
    errors: {
      400:
        'The file is empty, damaged, or named as another kind of file (a PNG named .pdf); a photo is over 26 megapixels or ' +
        '8,192 pixels a side; or the form has no field "file", or more than 4 parts.',
      413: `The file is larger than ${MAX_ATTACHMENT_MB} MB.`,
      415: 'The file is not a photo (JPEG, PNG, WebP) or a PDF: HTML, SVG, HEIC and anything else are refused.',
      429: 'Too many uploads in a minute, or more bytes in 24 hours than the daily limit (100 MB unless configured); see Retry-After.',
      503: 'Many photos are waiting to be processed: send it again after Retry-After seconds (the upload was not counted).',
    },
    handle: async ({ c, ctx }) => {
      if (!ctx.user) throw unauthorized();
      const boundary = multipartBoundary(c.req.header('content-type'));
      if (!boundary) throw badRequest(NOT_MULTIPART, { file: [NOT_MULTIPART] });
      const deps = uploadDeps(ctx.deps);
      // Who may upload, and whether they have room left, is known from the headers: nothing of the form is read before.
      await refuseOverLimits(deps, ctx.user.id, smallestFileIn(c));
      const file = await uploadedFile(c, boundary);
      const view = await uploadAttachment(deps, ctx.user, file);
      return { status: 201, message: 'File uploaded', data: view };
    },
  },
  {
    method: 'get',
    path: '/attachments/:id',
    summary:
      'The file itself, for a signed-in dietitian, the client whose record holds it, or its uploader while unused; or for anyone ' +
      'with its signed link (`url`). PDFs are always sent as downloads (Content-Disposition: attachment); photos as their ' +
      're-encoded type, with nosniff and a sandboxing Content-Security-Policy.',
    tag: 'Attachments',
    auth: 'optional',
    request: { params: attachmentIdParams, query: signedLinkQuery },
    download: { contentTypes: FILE_TYPES },
    errors: DOWNLOAD_ERRORS,
    handle: (input) => download(input, 'file'),
  },
  {
    method: 'get',
    path: '/attachments/:id/thumbnail',
    summary: 'A photo’s small preview (WebP, at most 320 px a side), on the same terms as the file (`thumbnailUrl` is its signed link).',
    tag: 'Attachments',
    auth: 'optional',
    request: { params: attachmentIdParams, query: signedLinkQuery },
    download: { contentTypes: ['image/webp'] },
    errors: DOWNLOAD_ERRORS,
    handle: (input) => download(input, 'thumbnail'),
  },
]);
