// Answers as the benchmark records them, and the store commands an answer costs (the service's /metrics,
// the minimal handler's own count).
import { PER_DELIVERY, type RecordedAnswer } from './scenarios.js';

/** One answer, as the ceiling will replay it. */
export async function record(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RecordedAnswer & { text: string; raw: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    // Identity unless the scenario asks for a coding: the ceiling replays these bytes with these headers, and
    // fetch would otherwise negotiate gzip and hand back the decoded body under a `Content-Encoding: gzip`.
    headers: { 'accept-encoding': 'identity', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const kept: Array<[string, string]> = [];
  res.headers.forEach((value, name) => {
    if (!PER_DELIVERY.has(name)) kept.push([name, value]);
  });
  return {
    method,
    url: path,
    status: res.status,
    headers: kept,
    bodyBase64: bytes.toString('base64'),
    text: bytes.toString('utf8'),
    raw: res.headers,
  };
}

/** Driver commands by name from the service's /metrics: counts, and `<name> ms` the time they took. */
export async function commandCounts(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(
    /^store_command_duration_seconds_(count|sum)\{command="([^"]+)",outcome="[^"]+"\} ([0-9.e+-]+)/gm,
  )) {
    const key = match[1] === 'count' ? match[2]! : `${match[2]} ms`;
    counts[key] = (counts[key] ?? 0) + Number(match[3]) * (match[1] === 'sum' ? 1000 : 1);
  }
  return counts;
}

export async function minimalCounts(base: string): Promise<Record<string, number>> {
  return (await (await fetch(`${base}/__commands`)).json()) as Record<string, number>;
}

export const delta = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(after).flatMap(([k, v]) => (v - (before[k] ?? 0) > 0 ? [[k, v - (before[k] ?? 0)]] : [])),
  );

/** Of several windows of command counts, the one with the fewest commands. */
export const fewest = (windows: Array<Record<string, number>>): Record<string, number> => {
  const commands = (w: Record<string, number>): number =>
    Object.entries(w).reduce((n, [k, v]) => (k.endsWith(' ms') ? n : n + v), 0);
  return windows.reduce((a, b) => (commands(b) < commands(a) ? b : a));
};

/** Where two answers first differ, for the log. */
export function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `at ${i} of ${a.length}/${b.length}: gateway …${a.slice(Math.max(0, i - 80), i + 120)}… vs minimal …${b.slice(Math.max(0, i - 80), i + 120)}…`;
}
