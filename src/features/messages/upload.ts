import type { Message } from '../../../server/messages/schema';
import { refreshSession } from '../../lib/auth-client';
import { session } from '../../lib/session';

type AttachmentView = Message['attachments'][number];

/** What the composer accepts; the server decides the type from the bytes anyway. */
export const ACCEPTED_FILES = 'image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf';
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export class UploadError extends Error {}

function send(file: File, token: string | null, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<{ status: number; body: { data?: AttachmentView; message?: string } | null }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/attachments');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => reject(new UploadError('No connection. Try again when you are back online.'));
    xhr.onabort = () => reject(new UploadError('Upload cancelled.'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/**
 * Uploads one file for a message (POST /api/attachments) with its progress,
 * renewing an expired session once. Answers the file's view, or throws the
 * server's own words (too big, not a photo or PDF, over the daily limit).
 */
export async function uploadAttachment(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<AttachmentView> {
  if (file.size === 0) throw new UploadError(`“${file.name}” is empty.`);
  if (file.size > MAX_FILE_BYTES) throw new UploadError(`“${file.name}” is larger than 10 MB. Send a smaller photo or PDF.`);
  let answer = await send(file, session.token(), onProgress, signal);
  if (answer.status === 401 && (await refreshSession()) === 'renewed') answer = await send(file, session.token(), onProgress, signal);
  if (answer.status === 201 && answer.body?.data) return answer.body.data;
  throw new UploadError(answer.body?.message ?? `“${file.name}” could not be uploaded (error ${answer.status}). Try again.`);
}
