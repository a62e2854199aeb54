// Newsletter: subscribe through GraphQL, read the mail from the outbox, activate on the REST path and
// through GraphQL; every wrong answer is byte-identical; bad input is a 400 that changes nothing.
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
const CHANNEL = '42';

beforeAll(async () => {
  svc = await startTestService();
  await svc.db.collection('channels').insertOne({
    _id: CHANNEL as never,
    name: 'Morning Briefing',
    image: null,
    description: 'Daily news',
    objectType: 'channel',
    configuration: { linkables: [], dynamicSections: [] },
  });
});
afterAll(async () => {
  await svc.close();
});

const SUBSCRIBE = `mutation Subscribe($channelId: ID!, $email: String!) {
  subscribeToNewsletter(channelId: $channelId, email: $email) { accepted message }
}`;

async function subscribe(email: string, channelId = CHANNEL) {
  return svc.gql<{ subscribeToNewsletter: { accepted: boolean; message: string } }>(SUBSCRIBE, { channelId, email });
}

/** The key and link from the newest activation mail to `email`. */
async function mailedKey(email: string): Promise<{ key: string; link: URL; text: string }> {
  const [mail] = await svc.db.collection('outbox').find({ to: email }).sort({ createdAt: -1 }).limit(1).toArray();
  expect(mail).toBeDefined();
  const text = String(mail!.text);
  const link = new URL(text.match(/https?:\/\/\S+/)![0]);
  return { key: link.searchParams.get('key')!, link, text };
}

async function activate(body: unknown, channelId = CHANNEL, contentType = 'application/json') {
  const res = await fetch(`${svc.url}/cms/channel/${channelId}/activate_subscription`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const subscription = (email: string) =>
  svc.db.collection('newsletterSubscriptions').findOne({ channelId: CHANNEL, email });

test('the whole flow: subscribe, read the mail, activate, activate again', async () => {
  const email = 'Reader.One@Example.com ';
  const { status, body } = await subscribe(email);
  expect(status).toBe(200);
  expect(body.data!.subscribeToNewsletter.accepted).toBe(true);

  const normalised = 'reader.one@example.com';
  const { key, link, text } = await mailedKey(normalised);
  expect(link.searchParams.get('email')).toBe(normalised);
  expect(link.searchParams.get('channel')).toBe(CHANNEL);
  expect(text).toContain('7 days');
  const stored = await subscription(normalised);
  expect(stored).toMatchObject({ status: 'pending', activatedAt: null });
  expect(stored!.keyHash).not.toContain(key);
  expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(7 * 24 * 3600 * 1000);

  const first = await activate({ email: '  READER.ONE@example.com', key });
  expect(first.status).toBe(200);
  expect(JSON.parse(first.text)).toEqual({ error: false });
  expect(await subscription(normalised)).toMatchObject({ status: 'active' });
  expect((await subscription(normalised))!.activatedAt).toBeInstanceOf(Date);

  const again = await activate({ email: normalised, key });
  expect(again.status).toBe(200);
  expect(JSON.parse(again.text)).toEqual({ error: false });
});

test('wrong, expired and unknown keys and unknown e-mails get byte-identical answers', async () => {
  await subscribe('two@example.com');
  const { key } = await mailedKey('two@example.com');
  await subscribe('expired@example.com');
  const { key: expiredKey } = await mailedKey('expired@example.com');
  await svc.db
    .collection('newsletterSubscriptions')
    .updateOne({ email: 'expired@example.com' }, { $set: { expiresAt: new Date(Date.now() - 1000) } });

  const answers = [
    await activate({ email: 'two@example.com', key: `${key}x` }),
    await activate({ email: 'two@example.com', key: 'not-a-key' }),
    await activate({ email: 'expired@example.com', key: expiredKey }),
    await activate({ email: 'nobody@example.com', key }),
    await activate({ email: 'nobody@example.com', key: 'whatever' }),
  ];
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(a.text).toBe(answers[0]!.text);
  }
  expect(JSON.parse(answers[0]!.text)).toEqual({ error: true, message: 'Invalid or expired activation key' });
  expect(await subscription('two@example.com')).toMatchObject({ status: 'pending' });
  expect(await subscription('expired@example.com')).toMatchObject({ status: 'pending' });
});

test('subscribing again sends a new key and the old one stops working; an active subscription stays active', async () => {
  await subscribe('three@example.com');
  const { key: oldKey } = await mailedKey('three@example.com');
  await subscribe('three@example.com');
  const { key: newKey } = await mailedKey('three@example.com');
  expect(newKey).not.toBe(oldKey);
  expect(JSON.parse((await activate({ email: 'three@example.com', key: oldKey })).text).error).toBe(true);
  expect(JSON.parse((await activate({ email: 'three@example.com', key: newKey })).text).error).toBe(false);

  const before = await svc.db.collection('outbox').countDocuments({ to: 'three@example.com' });
  const { body } = await subscribe('three@example.com');
  expect(body.data!.subscribeToNewsletter.accepted).toBe(true);
  expect(await subscription('three@example.com')).toMatchObject({ status: 'active' });
  expect(await svc.db.collection('outbox').countDocuments({ to: 'three@example.com' })).toBe(before);
  expect(JSON.parse((await activate({ email: 'three@example.com', key: newKey })).text).error).toBe(false);
});

test('the GraphQL mutation activates through the same operation', async () => {
  await subscribe('gql@example.com');
  const { key } = await mailedKey('gql@example.com');
  const ACTIVATE = `mutation A($c: ID!, $e: String!, $k: String!) { activateNewsletterSubscription(channelId: $c, email: $e, key: $k) { error message } }`;
  const wrong = await svc.gql<{ activateNewsletterSubscription: { error: boolean; message: string | null } }>(
    ACTIVATE,
    { c: CHANNEL, e: 'gql@example.com', k: 'nope' },
  );
  expect(wrong.body.data!.activateNewsletterSubscription).toEqual({
    error: true,
    message: 'Invalid or expired activation key',
  });
  const right = await svc.gql<{ activateNewsletterSubscription: { error: boolean; message: string | null } }>(
    ACTIVATE,
    { c: CHANNEL, e: 'gql@example.com', k: key },
  );
  expect(right.body.data!.activateNewsletterSubscription).toEqual({ error: false, message: null });

  const badEmail = await svc.gql(ACTIVATE, { c: CHANNEL, e: 'not an email', k: key });
  expect(badEmail.body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  const unknownChannel = await svc.gql(ACTIVATE, { c: '777', e: 'gql@example.com', k: key });
  expect(unknownChannel.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
});

test('malformed bodies and e-mails are 400 problems; a $-operator for the key changes nothing', async () => {
  await subscribe('guarded@example.com');
  const cases: Array<[unknown, string?]> = [
    ['{"email": "guarded@example.com", "key": '],
    [[{ email: 'guarded@example.com', key: 'k' }]],
    [{ email: 'guarded@example.com' }],
    [{ email: 'not-an-email', key: 'k' }],
    [{ email: 'guarded@example.com', key: { $ne: null } }],
    [{ email: { $regex: '.*' }, key: 'k' }],
    [{ email: 'guarded@example.com', key: 'k', $where: '1' }],
    [{ email: 'guarded@example.com', key: 12345 }],
  ];
  for (const [body] of cases) {
    const res = await activate(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ status: 400, code: 'BAD_REQUEST', title: 'Bad Request' });
  }
  const keyAsOperator = JSON.parse((await activate({ email: 'guarded@example.com', key: { $ne: null } })).text);
  expect(keyAsOperator.errors).toEqual([{ field: 'key', message: expect.any(String) }]);
  expect(await subscription('guarded@example.com')).toMatchObject({ status: 'pending' });

  const text = await activate('email=guarded@example.com&key=k', CHANNEL, 'application/x-www-form-urlencoded');
  expect(text.status).toBe(415);
});

test('channel ids must be integers of at most 18 digits; unknown channels are 404', async () => {
  for (const bad of ['abc', '12a', '-1', '1234567890123456789', '1.5']) {
    const res = await activate({ email: 'x@example.com', key: 'k' }, bad);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).errors[0].field).toBe('channel_id');
  }
  const unknown = await activate({ email: 'x@example.com', key: 'k' }, '999');
  expect(unknown.status).toBe(404);
  expect(JSON.parse(unknown.text)).toMatchObject({ status: 404, code: 'CHANNEL_NOT_FOUND' });
});

test('past the attempt limit one channel and e-mail get 429 with Retry-After; others are unaffected', async () => {
  await subscribe('limited@example.com');
  const { key } = await mailedKey('limited@example.com');
  for (let i = 0; i < 10; i++) {
    expect((await activate({ email: 'limited@example.com', key: `wrong-${i}` })).status).toBe(200);
  }
  const limited = await activate({ email: 'limited@example.com', key });
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(JSON.parse(limited.text)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  expect(await subscription('limited@example.com')).toMatchObject({ status: 'pending' });

  expect((await activate({ email: 'someone-else@example.com', key: 'k' })).status).toBe(200);
});

test('subscribing answers the same for known and unknown e-mails and is rate limited per channel and e-mail', async () => {
  const fresh = await subscribe('new-person@example.com');
  const known = await subscribe('new-person@example.com');
  expect(known.body).toEqual(fresh.body);
  await subscribe('new-person@example.com');
  const limited = await subscribe('new-person@example.com');
  expect(limited.body.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
  expect(await svc.db.collection('outbox').countDocuments({ to: 'new-person@example.com' })).toBe(3);
});

test('the mailed link opens a confirm page; only its form post activates', async () => {
  await subscribe('page@example.com');
  const { link } = await mailedKey('page@example.com');
  expect(link.pathname).toBe('/newsletter/activate');

  const shown = await fetch(`${svc.url}${link.pathname}${link.search}`);
  expect(shown.status).toBe(200);
  expect(shown.headers.get('content-type')).toMatch(/text\/html/);
  const html = await shown.text();
  expect(html).toContain('Confirm subscription');
  expect(html).toContain('page@example.com');
  expect(await subscription('page@example.com')).toMatchObject({ status: 'pending' });

  const form = new URLSearchParams({ channel: CHANNEL, email: 'page@example.com', key: link.searchParams.get('key')! });
  const posted = await fetch(`${svc.url}/newsletter/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  expect(posted.status).toBe(200);
  expect(await posted.text()).toContain('You are subscribed');
  expect(await subscription('page@example.com')).toMatchObject({ status: 'active' });

  const tampered = await fetch(`${svc.url}/newsletter/activate?channel=${CHANNEL}&email=%3Cscript%3E&key=k`);
  expect(tampered.status).toBe(400);
  expect(await tampered.text()).not.toContain('<script>');
});
