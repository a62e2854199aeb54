// The mail module (src/mail): SMTP through nodemailer when SMTP_URL is set (here against a minimal SMTP
// server on loopback), the outbox otherwise, with message bodies in the log only outside production.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { createMailer } from '../../src/mail/index.js';
import { OutboxMailer } from '../../src/mail/outbox.mailer.js';
import { SmtpMailer } from '../../src/mail/smtp.mailer.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';

/** Just enough SMTP to accept one message at a time and keep what was sent. */
function fakeSmtp(): { server: Server; received: Array<{ from: string; to: string[]; data: string }> } {
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { from: '', to: [], data: '' };
            reply('250 queued');
          } else current.data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) reply('250 fake');
        else if (/^MAIL FROM:/i.test(line)) {
          current.from = line.slice(10);
          reply('250 ok');
        } else if (/^RCPT TO:/i.test(line)) {
          current.to.push(line.slice(8));
          reply('250 ok');
        } else if (/^DATA/i.test(line)) {
          inData = true;
          reply('354 go ahead');
        } else if (/^QUIT/i.test(line)) {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  return { server, received };
}

let db: Awaited<ReturnType<typeof openTestDb>>;
let store: Store;

beforeAll(async () => {
  db = await openTestDb('mail');
  store = await Store.onDb(db.client, db.db);
});
afterAll(async () => {
  await db?.close();
});

test('with SMTP_URL, createMailer sends through SMTP', async () => {
  const { server, received } = fakeSmtp();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const config = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Gateway <no-reply@example.test>',
    });
    const mailer = createMailer({ config, store, log: pino({ level: 'silent' }) });
    expect(mailer).toBeInstanceOf(SmtpMailer);
    await mailer.send({ to: 'reader@example.test', subject: 'Hello', text: 'Plain body', html: '<p>Html body</p>' });
    (mailer as SmtpMailer).close();
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toContain('no-reply@example.test');
    expect(received[0]!.to.join()).toContain('reader@example.test');
    expect(received[0]!.data).toContain('Subject: Hello');
    expect(received[0]!.data).toContain('Plain body');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

function capturingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink) as unknown as Logger, lines };
}

test('without SMTP_URL: the outbox collection, and the text in the log in development only', async () => {
  const dev = capturingLogger();
  const mailer = createMailer({ config: loadConfig({ NODE_ENV: 'development' }), store, log: dev.log });
  expect(mailer).toBeInstanceOf(OutboxMailer);
  await mailer.send({ to: 'dev@example.test', subject: 'Code', text: 'Your code is 123456' });
  expect(await store.collection('outbox').findOne({ to: 'dev@example.test' })).toMatchObject({
    subject: 'Code',
    text: 'Your code is 123456',
  });
  expect(dev.lines.join('')).toContain('Your code is 123456');

  const prod = capturingLogger();
  const quiet = createMailer({ config: loadConfig({ NODE_ENV: 'production' }), store, log: prod.log });
  await quiet.send({ to: 'prod@example.test', subject: 'Code', text: 'Your code is 654321' });
  expect(prod.lines.join('')).not.toContain('654321');
  expect(prod.lines.join('')).toContain('SMTP_URL is not set');
});
