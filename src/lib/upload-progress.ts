/**
 * A POST whose upload progress can be shown. fetch() cannot report how much of a request body has gone,
 * so this uses XMLHttpRequest's upload.onprogress; the answer is read as JSON.
 */
export function postWithProgress<T>(
  url: string,
  body: FormData | Blob,
  options: { token?: string | null; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<{ status: number; body: T | null }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('Upload cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) options.onProgress?.(e.loaded / e.total);
    };
    const onAbort = () => xhr.abort();
    const done = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, body: (xhr.response as T | null) ?? null });
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network error'));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    options.signal?.addEventListener('abort', onAbort);
    xhr.send(body);
  });
}
