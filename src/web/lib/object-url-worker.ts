/// <reference lib="webworker" />
/**
 * Object URLs for the page's downloads. URL.createObjectURL registers the Blob with the browser in one
 * synchronous call: 82-267 ms on the page for an album's 300 MB ZIP (decision 320). Here it blocks only this
 * worker; a URL made here opens the same Blob for the page (same origin), until it is revoked here.
 */
import { type RpcEndpoint, serveRpc } from '../../audio/workers/worker-rpc';
import type { ObjectUrlApi } from './object-url-protocol';

serveRpc<ObjectUrlApi>(self as unknown as RpcEndpoint, {
  create: ({ blob }) => ({ url: URL.createObjectURL(blob) }),
  revoke: ({ url }) => {
    URL.revokeObjectURL(url);
    return null;
  },
});
