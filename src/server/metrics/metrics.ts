import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, in a registry of their own (every app built in a test has its own, and
 * nothing leaks between them). Only created when METRICS_TOKEN is set: without it no hook runs at all.
 */
export interface Metrics {
  registry: Registry;
  /** One finished request: `route` is the route pattern (`/api/tracks/:id`), never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  uploadStored(bytes: number): void;
  spendAnswered(type: string, outcome: string): void;
  webhookAnswered(provider: string, outcome: string): void;
  clientError(kind: string): void;
  /** The mail queue tells how to count what is waiting; read at each scrape. */
  setMailQueueDepthSource(source: () => number | Promise<number>): void;
  /** Stops the event-loop monitor (app close). */
  close(): void;
}

/**
 * Event-loop delay (since the previous scrape) and the process's CPU and memory, all read at scrape time.
 * prom-client's default set was measured at about +5 µs of CPU per request on GET /api/auth/user (most
 * likely its GC observer, called on every collection), so we keep what an operator needs, at no cost per
 * request (decision 134).
 */
function registerProcessMetrics(registry: Registry): () => void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
  const lag = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(seconds(read()));
      },
    });
  lag('nodejs_eventloop_lag_seconds', 'Mean event-loop delay since the previous scrape', () => loop.mean);
  lag(
    'nodejs_eventloop_lag_p99_seconds',
    '99th percentile of the event-loop delay since the previous scrape',
    () => loop.percentile(99),
  );
  lag('nodejs_eventloop_lag_max_seconds', 'Longest event-loop delay since the previous scrape', () => {
    const max = loop.max;
    loop.reset(); // read last: the three figures describe the same interval
    return max;
  });
  let cpuBefore = process.cpuUsage();
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time of this process',
    registers: [registry],
    collect() {
      const now = process.cpuUsage();
      this.inc((now.user - cpuBefore.user + now.system - cpuBefore.system) / 1e6);
      cpuBefore = now;
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory of this process',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'nodejs_heap_used_bytes',
    help: 'JavaScript heap in use',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  return () => loop.disable();
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const stopProcessMetrics = registerProcessMetrics(registry);

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern and status (its _count is the request count)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // The label lookup of prom-client hashes the label object on every call; one child per key avoids it.
  const children = new Map<string, ReturnType<typeof requests.labels>>();

  const uploadBytes = new Counter({
    name: 'mym_upload_bytes_total',
    help: 'Bytes of audio stored by successful uploads',
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'mym_uploads_total',
    help: 'Successful uploads',
    registers: [registry],
  });
  const spends = new Counter({
    name: 'mym_credit_spend_answers_total',
    help: 'Answers of POST /api/spend-credit by credit type and outcome (spent or the refusal)',
    labelNames: ['type', 'outcome'] as const,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'mym_webhook_answers_total',
    help: 'Payment-provider webhook deliveries by outcome',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const clientErrors = new Counter({
    name: 'mym_client_errors_total',
    help: 'Errors reported by browsers (POST /api/client-errors) by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  let mailQueueDepth: (() => number | Promise<number>) | undefined;
  new Gauge({
    name: 'mym_mail_queue_depth',
    help: 'Mails waiting to be sent (0 until the mail queue reports)',
    registers: [registry],
    async collect() {
      this.set(mailQueueDepth ? await mailQueueDepth() : 0);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels(method, route, String(status));
        children.set(key, child);
      }
      child.observe(seconds);
    },
    uploadStored(bytes) {
      uploads.inc();
      uploadBytes.inc(bytes);
    },
    spendAnswered: (type, outcome) => spends.inc({ type, outcome }),
    webhookAnswered: (provider, outcome) => webhooks.inc({ provider, outcome }),
    clientError: (kind) => clientErrors.inc({ kind }),
    setMailQueueDepthSource(source) {
      mailQueueDepth = source;
    },
    close: stopProcessMetrics,
  };
}
