// /metrics exposes Prometheus text with request, store-command and loader metrics, with bounded labels.
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

test('requests are counted by route pattern and GraphQL operation name', async () => {
  await fetch(`${svc.url}/healthz`);
  await svc.gql('query ServiceVersion { service { version } }');
  await fetch(`${svc.url}/some/random/${Math.random()}`);
  const res = await fetch(`${svc.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/);
  expect(text).toMatch(
    /http_request_duration_seconds_count\{method="POST",route="graphql:ServiceVersion",status="200"\} 1/,
  );
  expect(text).toMatch(/route="unmatched",status="404"/);
  expect(text).not.toContain('/some/random');
  expect(text).toContain('dataloader_batch_size');
  expect(text).toContain('rate_limit_rejections_total');
  expect(text).toContain('process_resident_memory_bytes');
});
