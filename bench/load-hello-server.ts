/**
 * The references for the load benchmarks: a bare Fastify 5 hello-world, no plugins, no logger, on a free
 * loopback port; with HELLO_PG_URL set, the same server also runs one `SELECT 1` on PostgreSQL per request
 * (the floor any endpoint that reads the database pays). Prints `listening <port>` once ready.
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = process.env.HELLO_PG_URL
  ? new pg.Pool({ connectionString: process.env.HELLO_PG_URL, max: 20 })
  : undefined;
const app = Fastify({ logger: false });
app.get('/', async () => {
  if (pool) await pool.query('SELECT 1');
  return { hello: 'world' };
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(() => pool?.end().then(() => process.exit(0))));
