// Requests Node's HTTP parser refuses before any middleware sees them (a URL or headers past its limit, a
// malformed request line): answered as JSON in the shape of every other error, with a request id, instead of
// Node's bare status line.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT'],
};

export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, title, code] = ANSWERS[err.code ?? ''] ?? [400, 'Bad Request', 'BAD_REQUEST'];
  const requestId = randomUUID();
  const body = JSON.stringify({
    errors: [{ message: title, extensions: { code, requestId } }],
    title,
    status,
    code,
    requestId,
  });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
