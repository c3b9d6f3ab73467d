import https from 'node:https';
import type { Readable } from 'node:stream';
import type { JsonBody } from './server-processes';

/**
 * A client of the TLS proxy in the topology test: it verifies the proxy's certificate against the test's own
 * CA (no `rejectUnauthorized: false`), and connects from a loopback address of its own choosing
 * (127.0.0.2, 127.0.0.3, ...), so the proxy sees several distinct clients on one machine. Node's fetch cannot
 * do either without an extra package, hence node:https.
 */
export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: JsonBody;
}

export function httpsClient(origin: string, opts: { ca: string; from: string }) {
  const agent = new https.Agent({ ca: opts.ca, localAddress: opts.from, keepAlive: true, maxSockets: 16 });

  function send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: Buffer | Readable,
  ): Promise<HttpsAnswer> {
    return new Promise((resolve, reject) => {
      // The path goes out exactly as written (no URL parsing: `/./x` and `/a/../x` must reach the proxy).
      const { hostname, port } = new URL(origin);
      const req = https.request({ hostname, port, path: url, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const json = String(res.headers['content-type'] ?? '').includes('json') && raw.length > 0;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: json ? JSON.parse(raw.toString()) : raw,
          });
        });
      });
      // `reusedSocket`: the request went out on a kept-alive connection. A proxy closing such a connection
      // without an answer is HTTP's "not processed here, retry" (HAProxy does it when the instance behind
      // died; curl and browsers retry); on a fresh connection the same failure is a 502.
      req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
      if (body === undefined || Buffer.isBuffer(body)) req.end(body);
      else body.pipe(req);
    });
  }

  return {
    from: opts.from,
    /** JSON in, JSON (or bytes) out; `token` goes in x-auth-token as the web app sends it. */
    api(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, token?: string) {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      return send(
        method,
        url,
        {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(payload.length) }
            : {}),
          ...(token ? { 'x-auth-token': token } : {}),
          ...headers,
        },
        payload,
      );
    },
    /** A raw request: a form post, a streamed upload. */
    send,
    close: () => agent.destroy(),
  };
}

export type HttpsClient = ReturnType<typeof httpsClient>;
