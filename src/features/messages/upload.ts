import type { Message } from '../../../server/messages/schema';
import { refreshSession } from '../../lib/auth-client';
import { compressImage } from '../../lib/image-compress';
import { session } from '../../lib/session';
import { postWithProgress } from '../../lib/upload-progress';

type AttachmentView = Message['attachments'][number];

/** What the composer accepts; the server decides the type from the bytes anyway. */
export const ACCEPTED_FILES = 'image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf';
/** What a meal's photo slot accepts. */
export const ACCEPTED_PHOTOS = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp';
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A photo is made small on the phone first, so a camera's larger original may be chosen. */
const MAX_PHOTO_SOURCE_BYTES = 40 * 1024 * 1024;

export class UploadError extends Error {}

const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
const PHOTO_EXTENSIONS = /\.(jpe?g|png|webp)$/i;
const PDF_EXTENSION = /\.pdf$/i;

/** Whether a chosen file looks like a photo we take (by its type, else its name's ending). */
export const isPhoto = (file: File) => PHOTO_TYPES.has(file.type) || (!file.type && PHOTO_EXTENSIONS.test(file.name));
const isPdf = (file: File) => file.type === 'application/pdf' || (!file.type && PDF_EXTENSION.test(file.name));

/**
 * Why a chosen file is not taken, with its whole name, said before anything is uploaded; null when it may
 * go. `photosOnly` is the meal's photo slot (no PDF).
 */
export function refusalOf(file: File, { photosOnly = false }: { photosOnly?: boolean } = {}): string | null {
  const accepted = photosOnly ? 'a photo (JPEG, PNG or WebP)' : 'a photo (JPEG, PNG or WebP) or a PDF';
  if (!isPhoto(file) && !(isPdf(file) && !photosOnly)) {
    const what = isPdf(file)
      ? 'is a PDF'
      : /\.hei[cf]$/i.test(file.name) || /hei[cf]/i.test(file.type)
        ? 'is a HEIC photo'
        : 'cannot be sent';
    const heic = what === 'is a HEIC photo' ? ' Set the camera to “Most compatible” or share it as JPEG.' : '';
    return `“${file.name}” ${what}: choose ${accepted}.${heic}`;
  }
  if (file.size === 0) return `“${file.name}” is empty.`;
  const limit = isPhoto(file) ? MAX_PHOTO_SOURCE_BYTES : MAX_FILE_BYTES;
  if (file.size > limit)
    return `“${file.name}” is larger than ${limit / 1024 / 1024} MB. Choose a smaller ${isPhoto(file) ? 'photo' : 'PDF'}.`;
  return null;
}

export type UploadProgress = {
  /** 'preparing': a photo is being made smaller on the phone; 'uploading': bytes are going (fraction of them sent). */
  stage: 'preparing' | 'uploading';
  fraction: number;
};

/**
 * Uploads one file for a message, a meal or the care record (POST /api/attachments) with its progress:
 * a photo is first made small on the phone (lib/image-compress.ts), then sent, renewing an expired
 * session once. Answers the file's view, or throws the server's own words (too big, not a photo or PDF,
 * over the daily limit). `onProgress` gets the fraction of bytes sent; `onStage` also says when a photo
 * is still being prepared.
 */
export async function uploadAttachment(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  options: { photosOnly?: boolean; onStage?: (progress: UploadProgress) => void } = {},
): Promise<AttachmentView> {
  const refused = refusalOf(file, options);
  if (refused) throw new UploadError(refused);
  options.onStage?.({ stage: 'preparing', fraction: 0 });
  const sent = isPhoto(file) ? await compressImage(file) : file;
  if (signal?.aborted) throw new UploadError('Upload cancelled.');
  if (sent.size > MAX_FILE_BYTES)
    throw new UploadError(`“${file.name}” is larger than 10 MB even when made smaller. Choose a smaller photo.`);
  const progress = (fraction: number) => {
    onProgress(fraction);
    options.onStage?.({ stage: 'uploading', fraction });
  };
  progress(0);
  const form = () => {
    const body = new FormData();
    body.append('file', sent, sent.name);
    return body;
  };
  const post = () =>
    postWithProgress<{ data?: AttachmentView; message?: string }>('/api/attachments', form(), {
      token: session.token(),
      onProgress: progress,
      signal,
    }).catch((err: Error) => {
      throw new UploadError(
        err.name === 'AbortError'
          ? 'Upload cancelled.'
          : `“${file.name}” could not be sent: no connection. Try again when you are back online.`,
      );
    });
  let answer = await post();
  if (answer.status === 401 && (await refreshSession()) === 'renewed') answer = await post();
  if (answer.status === 201 && answer.body?.data) return answer.body.data;
  const why = answer.body?.message;
  throw new UploadError(why ? `“${file.name}”: ${why}` : `“${file.name}” could not be uploaded (error ${answer.status}). Try again.`);
}
