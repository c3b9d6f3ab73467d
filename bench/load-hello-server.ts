/**
 * The reference for the load benchmarks: a bare Fastify 5 hello-world, no plugins, no logger, on a free
 * loopback port. Prints `listening <port>` once ready.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
