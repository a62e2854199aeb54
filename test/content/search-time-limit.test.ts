// A search the store stops at its time limit (MongoDB's maxTimeMS, error 50) is refused as SEARCH_UNAVAILABLE,
// an execution error of that field, never an internal error. The engine does not enforce maxTimeMS, so its
// failCommand fail point answers as MongoDB would; fail points are server-wide, hence an engine of this file's own.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startEngine, type RunningEngine } from '@gateway/engine';
import { MongoClient } from 'mongodb';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';

let engine: RunningEngine;
let admin: MongoClient;
let svc: TestService;
const shared = process.env.TEST_MONGODB_URI;

beforeAll(async () => {
  engine = await startEngine({ host: '127.0.0.1', port: 0, testCommands: true });
  admin = await MongoClient.connect(engine.uri);
  process.env.TEST_MONGODB_URI = engine.uri;
  svc = await startTestService();
  process.env.TEST_MONGODB_URI = shared;
  await f.insert(svc.db, { articles: [f.article('a-1', { title: 'The harbour at dawn' })] });
});
afterAll(async () => {
  await svc.close();
  await admin.close();
  await engine.close();
});

test('a search stopped at its time limit is SEARCH_UNAVAILABLE; the next one answers', async () => {
  const search = '{ searchArticles(query: "harbour", first: 2) { totalCount edges { node { id } } } }';
  await admin.db('admin').command({
    configureFailPoint: 'failCommand',
    mode: { times: 1 },
    data: { failCommands: ['aggregate'], errorCode: 50 },
  });
  const refused = await svc.gql(search);
  expect(refused.status).toBe(200);
  expect(refused.body.errors?.map((e) => e.extensions?.code)).toEqual(['SEARCH_UNAVAILABLE']);
  expect(refused.body.errors?.[0]?.message).toBe('Service Unavailable');

  const answered = await svc.gql<{ searchArticles: { totalCount: number } }>(search);
  expect(answered.body.errors).toBeUndefined();
  expect(answered.body.data?.searchArticles.totalCount).toBe(1);
});
