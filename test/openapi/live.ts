// Shared by the live-response tests: the real service, the document it serves at /openapi.json, and an
// assertion that a response conforms to it (status expected, no findings).
import { expect } from '@jest/globals';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Conformance, read, type LiveResponse } from './conformance.js';

export interface Live {
  svc: TestService;
  conformance: Conformance;
  /** Fetches `path` on the service and checks the answer against `method template` in the document. */
  call(template: string, path: string, init: RequestInit & { expect: number }): Promise<LiveResponse>;
}

export async function startLive(opts: Parameters<typeof startTestService>[0] = {}): Promise<Live> {
  const svc = await startTestService(opts);
  // The document as served, not as built in-process: what a client actually downloads.
  const served = await fetch(`${svc.url}/openapi.json`);
  if (served.status !== 200) {
    const text = await served.text();
    await svc.close();
    throw new Error(`GET /openapi.json answered ${served.status}: ${text}`);
  }
  const conformance = new Conformance((await served.json()) as OpenApiDocument);
  return {
    svc,
    conformance,
    async call(template, path, init) {
      const { expect: status, ...request } = init;
      const res = await read(await fetch(`${svc.url}${path}`, request));
      expect({ status: res.status, body: res.text.slice(0, 500) }).toEqual({ status, body: expect.any(String) });
      expect(conformance.check(request.method ?? 'GET', template, res)).toEqual([]);
      return res;
    },
  };
}

/** Documented responses (for paths matching `scope`) that no test produced, minus those allowed to be missing. */
export function unexercised(conformance: Conformance, scope: (key: string) => boolean, allowed: RegExp): string[] {
  return conformance
    .documentedResponses()
    .filter((key) => scope(key) && !conformance.exercised.has(key) && !allowed.test(key));
}

export const json = (
  body: unknown,
  headers: Record<string, string> = {},
): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
