import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy on 127.0.0.1 in front of a real peer (the Stripe stand-in) that can hold requests matching
 * a rule without answering, so a test can crash a server while it waits inside its own transaction.
 */
export async function startHoldingProxy(target: string) {
  let rule: ((method: string, path: string) => boolean) | null = null;
  const held: http.ServerResponse[] = [];
  let onHeld: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    if (rule?.(req.method ?? 'GET', req.url ?? '/')) {
      held.push(res);
      onHeld?.();
      return;
    }
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** From now on, requests matching `match` are held; resolves when the first one arrives. */
    holdNext(match: (method: string, path: string) => boolean): Promise<void> {
      rule = match;
      return new Promise((resolve) => {
        onHeld = () => {
          onHeld = null;
          resolve();
        };
      });
    },
    /** Stops holding; requests already held are dropped. */
    release() {
      rule = null;
      for (const res of held.splice(0)) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
