/**
 * A multipart upload with progress and cancellation. XMLHttpRequest, not fetch: fetch reports no upload
 * progress, and a streamed request body (to count bytes ourselves) needs HTTP/2 in Chromium, while the app
 * is served over HTTP/1.1 (decision 123). Errors take the api client's form (spec 7): 'status: body text'.
 */
import { throwIfNotOk } from './api-client';

export interface XhrUploadOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (sent: number, total: number) => void;
}

export class UploadNetworkError extends Error {
  override name = 'UploadNetworkError';
}

export const xhrUpload = (url: string, body: FormData, options: XhrUploadOptions = {}): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded, e.total);
    };
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    xhr.onabort = () => {
      settle();
      reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'));
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadNetworkError('The connection was lost during the upload'));
    };
    xhr.onload = () => {
      settle();
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' },
      });
      throwIfNotOk(response)
        .then(() =>
          response.headers.get('content-type')?.includes('application/json') ? response.json() : response,
        )
        .then(resolve, reject);
    };
    xhr.send(body);
  });
