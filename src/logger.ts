// The process logger: pino JSON lines, with secrets redacted wherever they appear.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_KEYS = ['authorization', 'password', 'refresh_token', 'code_verifier', 'key', 'client_secret', 'cookie', 'access_token', 'id_token', 'device_token'];

/**
 * `code` (an authorization or one-time code) is redacted where request input is logged; not everywhere,
 * because `err.code` is the one thing that makes a logged driver error useful.
 */
const CODE_PATHS = ['code', 'body.code', 'query.code', 'params.code', '*.body.code', '*.query.code', 'req.body.code', 'req.query.code'];

export const redactPaths = [...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `req.headers.${k}`]), ...CODE_PATHS];

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gateway' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
