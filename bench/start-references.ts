// The two references beside the service: the ceiling replaying the gateway's recorded answers and the minimal
// handler making the same store reads, each started and its answers checked against the gateway's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { delta, firstDifference, minimalCounts } from './answers.js';
import type { GatewayAnswers } from './gateway-answers.js';
import { log } from './log.js';
import { nestedPostBody, restListPath, smallPostBody } from './scenarios.js';
import { DB_NAME, startReference } from './stack.js';

export async function startReferences(
  dir: string,
  engineUri: string,
  nodeFlags: string[],
  answers: GatewayAnswers,
  checks: string[],
) {
  const { nestedPost, nestedGet, restGet, restMiss, categories, smallIds, smallAnswers } = answers;
  const fixtures = join(dir, `bench-fixtures-${process.pid}.json`);
  const replay = [nestedPost, nestedGet, restGet, categories].map(({ method, url, status, headers, bodyBase64 }) => ({
    method,
    url,
    status,
    headers,
    bodyBase64,
  }));
  writeFileSync(fixtures, JSON.stringify(replay));
  const ceiling = await startReference('ceiling', ['--fixtures', fixtures]);
  const minimal = await startReference('minimal', ['--uri', engineUri, '--db', DB_NAME], nodeFlags);
  log(
    `references: ceiling ${ceiling.url} (pid ${ceiling.proc.pid}), minimal handler ${minimal.url} (pid ${minimal.proc.pid})`,
  );
  for (const r of replay) {
    const res = await fetch(`${ceiling.url}${r.url}`, {
      method: r.method,
      body: r.method === 'POST' ? '{}' : undefined,
    });
    if (Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(r.bodyBase64, 'base64')) !== 0)
      throw new Error(`ceiling does not replay ${r.url}`);
  }

  const minimalNestedAnswer = async (): Promise<string> =>
    (
      await fetch(`${minimal.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: nestedPostBody,
      })
    ).text();
  await minimalNestedAnswer();
  let mBefore = await minimalCounts(minimal.url);
  const minimalNested = await minimalNestedAnswer();
  const minimalNestedCommands = delta(await minimalCounts(minimal.url), mBefore);
  const nestedSame = minimalNested === nestedPost.text;
  let smallDiffers: string | undefined;
  for (const id of smallIds) {
    const minimalSmall = await (
      await fetch(`${minimal.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: smallPostBody(id),
      })
    ).text();
    if (minimalSmall !== smallAnswers.get(id))
      smallDiffers ??= `${id}: ${firstDifference(smallAnswers.get(id)!, minimalSmall)}`;
  }
  checks.push(
    smallDiffers === undefined
      ? `minimal handler, small query: byte-identical to the gateway's answer for all ${smallIds.length} articles`
      : `minimal handler, small query: DIFFERS ${smallDiffers}`,
  );
  checks.push(
    nestedSame
      ? "minimal handler, nested query: byte-identical to the gateway's answer"
      : `minimal handler, nested query: DIFFERS ${firstDifference(nestedPost.text, minimalNested)}`,
  );
  await (await fetch(`${minimal.url}${restListPath}`)).text();
  mBefore = await minimalCounts(minimal.url);
  const t = performance.now();
  const minimalRest = await (await fetch(`${minimal.url}${restListPath}`)).text();
  const minimalRestMs = performance.now() - t;
  const minimalRestCommands = delta(await minimalCounts(minimal.url), mBefore);
  const restSame = minimalRest === restMiss.text;
  checks.push(
    restSame
      ? `minimal handler, REST list: byte-identical to the gateway's answer (computed in ${minimalRestMs.toFixed(0)} ms)`
      : `minimal handler, REST list: DIFFERS ${firstDifference(restMiss.text, minimalRest)}`,
  );
  return { ceiling, minimal, nestedSame, minimalNestedCommands, minimalRestCommands };
}
