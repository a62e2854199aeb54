// The service's answer to every scenario, recorded and checked once before the runs: what every load request
// is checked against, the ceiling's fixtures, and the store commands one answer costs.
import { commandCounts, delta, fewest, record } from './answers.js';
import {
  categoriesPath,
  graphqlGetHeaders,
  graphqlProblem,
  nestedGetPath,
  nestedPostBody,
  restListPath,
  smallPostBody,
  SMALL_IDS,
} from './scenarios.js';
import { sampleArticleIds } from './stack.js';

export type GatewayAnswers = Awaited<ReturnType<typeof recordGatewayAnswers>>;

export async function recordGatewayAnswers(serviceUrl: string, engineUri: string, itemBody: string, checks: string[]) {
  const nestedPost = await record(serviceUrl, 'POST', '/graphql', {}, nestedPostBody);
  // Answers again, warm, for the store commands one answer makes and the time they take: the fewest of three, since
  // /metrics also counts the OAuth polls the service sends on its own timer (two finds) when one falls in the window.
  const windows: Array<Record<string, number>> = [];
  for (let i = 0; i < 3; i++) {
    const before = await commandCounts(serviceUrl);
    await record(serviceUrl, 'POST', '/graphql', {}, nestedPostBody);
    windows.push(delta(await commandCounts(serviceUrl), before));
  }
  const nestedCommands = fewest(windows);
  const problem = graphqlProblem(nestedPost.status, nestedPost.text);
  if (problem) throw new Error(`nested query: ${problem}`);
  const edges = (
    JSON.parse(nestedPost.text) as {
      data: { page: { issues: { edges: Array<{ node: { contents: Array<{ articles: unknown[] }> } }> } } };
    }
  ).data.page.issues.edges;
  const articleCount = edges.reduce((n, e) => n + e.node.contents.reduce((m, c) => m + c.articles.length, 0), 0);
  checks.push(
    `nested query answer: ${edges.length} issues, ${articleCount} articles, ${(nestedPost.text.length / 1024).toFixed(1)} KiB, no errors`,
  );

  await record(serviceUrl, 'GET', nestedGetPath, graphqlGetHeaders); // MISS: stores it
  const nestedGet = await record(serviceUrl, 'GET', nestedGetPath, graphqlGetHeaders);
  if (nestedGet.raw.get('x-cache') !== 'HIT' || nestedGet.text !== nestedPost.text)
    throw new Error(
      `nested GET not served from the cache with the same body (x-cache ${nestedGet.raw.get('x-cache')})`,
    );
  checks.push(
    'nested query as GET: second answer served from the response cache (X-Cache: HIT), same bytes as the POST answer',
  );

  const before = await commandCounts(serviceUrl);
  const t = performance.now();
  const restMiss = await record(serviceUrl, 'GET', restListPath, {});
  const restMs = performance.now() - t;
  const restCommands = delta(await commandCounts(serviceUrl), before);
  if (restMiss.status !== 200) throw new Error(`REST list answered ${restMiss.status}: ${restMiss.text.slice(0, 500)}`);
  const restGet = await record(serviceUrl, 'GET', restListPath, {});
  if (restGet.raw.get('x-cache') !== 'HIT' || restGet.text !== restMiss.text)
    throw new Error('REST list not served from the cache');
  const restIssues = (JSON.parse(restMiss.text) as { issues: unknown[] }).issues.length;
  checks.push(
    `REST list ${restListPath}: ${restIssues} issues, ${(restMiss.text.length / 1024).toFixed(1)} KiB; computing it took ${restMs.toFixed(0)} ms; second answer from the cache`,
  );

  await record(serviceUrl, 'GET', categoriesPath, {});
  const categories = await record(serviceUrl, 'GET', categoriesPath, {});
  if (categories.status !== 200 || categories.raw.get('x-cache') !== 'HIT')
    throw new Error(`categories: ${categories.status} ${categories.raw.get('x-cache')}`);
  const categoryCount = (JSON.parse(categories.text) as unknown[]).length;
  checks.push(`${categoriesPath}: ${categoryCount} categories, ${(categories.text.length / 1024).toFixed(1)} KiB`);

  const item = await record(serviceUrl, 'POST', '/graphql', {}, itemBody);
  const itemProblem = graphqlProblem(item.status, item.text);
  if (itemProblem || !item.text.includes('"productItem":{'))
    throw new Error(`product item: ${itemProblem ?? item.text}`);
  checks.push(`productItem lookup: ${item.text.length} bytes, no errors`);

  // The small query asks for SMALL_IDS articles in turn; every answer is checked against its own article's.
  const smallIds = await sampleArticleIds(engineUri, SMALL_IDS);
  const smallAnswers = new Map<string, string>();
  for (const id of smallIds) {
    const answer = await record(serviceUrl, 'POST', '/graphql', {}, smallPostBody(id));
    const problem = graphqlProblem(answer.status, answer.text);
    if (problem || !answer.text.includes(`"article":{"id":${JSON.stringify(id)}`))
      throw new Error(`small query: ${problem ?? answer.text}`);
    smallAnswers.set(id, answer.text);
  }
  checks.push(`small query: ${smallIds.length} articles asked in turn, e.g. ${smallAnswers.get(smallIds[0]!)!}`);
  return {
    nestedPost,
    nestedCommands,
    nestedGet,
    restMiss,
    restMs,
    restCommands,
    restGet,
    categories,
    item,
    smallIds,
    smallAnswers,
  };
}
