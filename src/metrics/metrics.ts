// Prometheus metrics (prom-client): one registry per process, bounded label sets only.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route (the matched route pattern, never the raw path) or GraphQL operation name',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const storeCommands = new Histogram({
  name: 'store_command_duration_seconds',
  help: 'MongoDB commands sent by the driver, by command name and outcome',
  labelNames: ['command', 'outcome'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const loaderBatchSize = new Histogram({
  name: 'dataloader_batch_size',
  help: 'Keys per DataLoader batch, by loader',
  labelNames: ['loader'] as const,
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
  registers: [registry],
});

export const sharedReadReaders = new Histogram({
  name: 'store_shared_read_readers',
  help: 'Batches of reads by key (one per request and loader) that one store command served (store/shared-reads.ts)',
  buckets: [1, 2, 5, 10, 25, 50, 100],
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests answered 429, by route',
  labelNames: ['route'] as const,
  registers: [registry],
});

const MAX_OPERATION_NAMES = 100;
const seenOperations = new Set<string>();

/** GraphQL operation names are client-chosen: keep the first 100 distinct ones, fold the rest into "other". */
export function operationLabel(name: string | null | undefined): string {
  if (!name) return 'anonymous';
  const safe = name.slice(0, 64);
  if (seenOperations.has(safe)) return safe;
  if (seenOperations.size >= MAX_OPERATION_NAMES) return 'other';
  seenOperations.add(safe);
  return safe;
}
