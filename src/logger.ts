// The process logger: pino JSON lines, with secrets redacted wherever they appear.
import { pino, type Logger } from 'pino';

export type { Logger };

const SECRET_KEYS = ['authorization', 'password', 'refresh_token', 'code', 'code_verifier', 'key', 'client_secret', 'cookie'];

export const redactPaths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `req.headers.${k}`]);

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gateway' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
