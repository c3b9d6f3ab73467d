/**
 * A worker's real handlers served over a MessageChannel, standing in for the Worker in Node (which has no
 * module workers): the client under test talks to them through the same RPC protocol as in the page. The
 * channels close after each test.
 */
import { afterEach } from 'vitest';
import { type RpcEndpoint, type RpcHandlers, type RpcSpec, serveRpc } from './worker-rpc';

export const inProcessWorker = <Spec extends RpcSpec<Spec>>(
  handlers: () => RpcHandlers<Spec>,
): (() => Worker) => {
  const ports: MessagePort[] = [];
  afterEach(() => {
    for (const p of ports.splice(0)) p.close();
  });
  return () => {
    const channel = new MessageChannel();
    ports.push(channel.port1, channel.port2);
    serveRpc<Spec>(channel.port2 as unknown as RpcEndpoint, handlers());
    return channel.port1 as unknown as Worker;
  };
};
