// The process log: JSON lines wherever something collects it (a pipe, a file, production anywhere); readable
// lines for a developer at a terminal, with the same redaction and multi-line messages (the demo credentials
// banner) shown as lines rather than `\n` escapes.
import { pathToFileURL } from 'node:url';
import { wantsPrettyLog } from '../../src/logger.js';
import { ensureBuilt, distPath } from '../helpers/built.js';
import { spawnNode } from '../helpers/child.js';

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

test('pretty only at a terminal outside production', () => {
  expect(wantsPrettyLog('development', { isTTY: true })).toBe(true);
  expect(wantsPrettyLog('test', { isTTY: true })).toBe(true);
  expect(wantsPrettyLog('production', { isTTY: true })).toBe(false);
  expect(wantsPrettyLog('development', { isTTY: false })).toBe(false);
  expect(wantsPrettyLog('development', {})).toBe(false);
});

/**
 * Runs the built logger in a child process with `pretty` and returns what it printed, colours removed. The
 * child keeps libuv's thread pool busy and exits straight after logging, as a fatal start-up error does: a
 * stream that wrote through the thread pool would print its lines out of order or lose them.
 */
async function printed(pretty: boolean): Promise<string[]> {
  const logger = pathToFileURL(distPath('src/logger.js')).href;
  const code = `
    import { createLogger } from ${JSON.stringify(logger)};
    import { pbkdf2 } from 'node:crypto';
    for (let i = 0; i < 4; i++) pbkdf2('p', 's', 200000, 32, 'sha256', () => {});
    const log = createLogger('info', { pretty: ${pretty} });
    log.info({ req: { headers: { authorization: 'Bearer the-secret-token' } }, password: 'the-password' }, 'a request');
    log.info('demo access (development only):\\n  customer demo@example.com / demo-password\\n  client demo-first-party');
    process.exit(0);
  `;
  const child = spawnNode('--input-type=module', ['-e', code], {});
  expect(await child.exited).toBe(0);
  expect(child.stderr.join('')).toBe('');
  return child.lines.map((l) =>
    // eslint-disable-next-line no-control-regex -- the terminal's colour codes start with ESC
    typeof l.level === 'number' ? JSON.stringify(l) : String(l.msg).replace(/\x1b\[[0-9;]*m/g, ''),
  );
}

test('pretty: readable lines, secrets still redacted, a multi-line message shown as lines', async () => {
  const lines = await printed(true);
  const text = lines.join('\n');
  expect(lines.some((l) => l.startsWith('{'))).toBe(false);
  expect(text).toMatch(/INFO.*a request/);
  expect(text).toContain('[redacted]');
  expect(text).not.toContain('the-secret-token');
  expect(text).not.toContain('the-password');
  expect(text).not.toContain('\\n');
  expect(lines).toContain('  customer demo@example.com / demo-password');
  expect(lines).toContain('  client demo-first-party');
});

test('JSON: one object a line, the same redaction', async () => {
  const lines = await printed(false);
  expect(lines).toHaveLength(2);
  const [request, banner] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(request).toMatchObject({
    level: 30,
    msg: 'a request',
    password: '[redacted]',
    req: { headers: { authorization: '[redacted]' } },
  });
  expect(banner!.msg).toContain('\n  customer demo@example.com');
});
