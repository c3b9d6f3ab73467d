/**
 * The object-URL worker's protocol (see worker-rpc.ts): it registers a download's Blob with the browser and
 * revokes the URL later, off the page's main thread (decision 320).
 */
export interface ObjectUrlApi {
  create: { request: { blob: Blob }; response: { url: string }; progress: never };
  revoke: { request: { url: string }; response: null; progress: never };
}
