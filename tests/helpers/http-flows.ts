import http from 'node:http';
import { TEST_CARD_NUMBERS } from '../../src/server/modules/billing/test-cards';
import { httpUpload, multipart, wavBytes } from '../../src/server/modules/tracks/test-uploads';
import { api, type JsonBody } from './server-processes';

/** User journeys over real HTTP, shared by the scale-out, fault and load suites. */

/** The local provider's hosted checkout form, filled with the test card that succeeds. */
export const successfulCardForm = () =>
  new URLSearchParams({
    number: TEST_CARD_NUMBERS.success,
    expiry: `12/${(new Date().getUTCFullYear() + 3) % 100}`,
    cvc: '123',
  }).toString();

/** Subscribes through the local provider's hosted checkout (served by the process at `origin`). */
export async function subscribeOverHttp(origin: string, token: string, plan: 'pro' | 'unlimited') {
  const checkout = await api(
    origin,
    'POST',
    '/api/create-checkout-session',
    { lookup_key: `${plan}_plan` },
    { 'x-auth-token': token },
  );
  if (checkout.status !== 200)
    throw new Error(`checkout: ${checkout.status} ${JSON.stringify(checkout.body)}`);
  const paid = await fetch(checkout.body.url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: successfulCardForm(),
    redirect: 'manual',
  });
  await paid.arrayBuffer();
  if (paid.status !== 303) throw new Error(`checkout payment answered ${paid.status}`);
}

/** Uploads a small generated WAV; resolves with the status and the JSON answer. */
export async function uploadWav(origin: string, token: string, name = 'take 1', seconds = 0.5) {
  const data = wavBytes({ seconds });
  const form = multipart([
    { name: 'type', value: 'vocals' },
    { name: 'name', value: name },
    { name: 'audio', filename: 'take.wav', contentType: 'audio/wav', data },
  ]);
  const res = await httpUpload(
    `${origin}/api/tracks`,
    { ...form.headers, 'content-length': String(form.payload.length), 'x-auth-token': token },
    (await import('node:stream')).Readable.from([form.payload]),
  );
  return { ...res, data };
}

/**
 * Starts an upload and sends only its first `sendBytes` bytes, then holds the connection open (a slow or
 * stalled client). `finish()` sends the rest; `abort()` drops the connection; `response` settles when the
 * server answers or the connection closes.
 */
export function heldUpload(
  origin: string,
  token: string,
  payload: Buffer,
  headers: Record<string, string>,
  sendBytes: number,
) {
  let closedAt = 0;
  const req = http.request(`${origin}/api/tracks`, {
    method: 'POST',
    headers: { ...headers, 'content-length': String(payload.length), 'x-auth-token': token },
  });
  const response = new Promise<{ status: number; body: JsonBody } | { error: string }>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        closedAt = Date.now();
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.on('error', (err) => {
      closedAt = Date.now();
      resolve({ error: err.message });
    });
  });
  req.flushHeaders();
  req.write(payload.subarray(0, sendBytes));
  return {
    req,
    response,
    closedAt: () => closedAt,
    /** Sends one more byte (a slow-loris trickle). */
    trickle(offset: number) {
      if (!req.destroyed) req.write(payload.subarray(offset, offset + 1));
    },
    finish() {
      req.end(payload.subarray(sendBytes));
      return response;
    },
    abort() {
      req.destroy();
    },
  };
}
