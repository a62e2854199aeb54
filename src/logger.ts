// The process logger: pino JSON lines, with secrets redacted wherever they appear; readable lines instead
// when a developer watches it in a terminal.
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger };

const SECRET_KEYS = [
  'authorization',
  'password',
  'refresh_token',
  'code_verifier',
  'key',
  'client_secret',
  'cookie',
  'access_token',
  'id_token',
  'device_token',
];

/**
 * `code` (an authorization or one-time code) is redacted where request input is logged; not everywhere,
 * because `err.code` is the one thing that makes a logged driver error useful.
 */
const CODE_PATHS = [
  'code',
  'body.code',
  'query.code',
  'params.code',
  '*.body.code',
  '*.query.code',
  'req.body.code',
  'req.query.code',
];

const redactPaths = [...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `req.headers.${k}`]), ...CODE_PATHS];

/**
 * Pretty output only for a person at a terminal outside production: anything that collects the log (a pipe,
 * a file, a container runtime) gets JSON lines, and so does production wherever it writes.
 */
export function wantsPrettyLog(env: string, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return env !== 'production' && stdout.isTTY === true;
}

export function createLogger(level: string, opts: { pretty?: boolean } = {}): Logger {
  const options = {
    level,
    base: { service: 'gateway' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // Synchronous, like Node's own stdout on a pipe: pino's default asynchronous stream, flushed at exit, writes
  // the lines still queued while an earlier one is in flight, so the last lines before `process.exit` (a fatal
  // start-up error) came out reordered or not at all, about one run in eight.
  if (!opts.pretty) return pino(options, pino.destination({ dest: 1, sync: true }));
  // In this thread and synchronous (no worker transport): pino redacts before the line reaches the prettifier,
  // and a line written just before process.exit is not lost. One line an entry, its fields after the message;
  // a message's own lines (the demo credentials) are printed as lines.
  // Loaded only here: a start whose log is collected (every deployed one) does not pay for the prettifier's modules.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pino(
    options,
    pinoPretty({
      sync: true,
      colorize: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
    }),
  );
}
