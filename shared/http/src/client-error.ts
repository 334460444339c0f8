import type { Duplex } from 'node:stream';
import { type ErrorFormat, formatError, HttpLayerError } from './error-format';

/** Errors Node's parser raises before the app sees a request, and the status each is answered with. */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request.headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request.timeout', 'The request was not received in time.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request.timeout', 'The request headers were not received in time.'],
};
const STATUS_LINES: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * What Node writes itself when a request cannot be parsed (a bad request line, headers too large, a
 * request too slow) goes out in the service's documented error shape, as any other error, and the
 * connection is closed. Nothing is written on a socket that is gone or already answering.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, format: ErrorFormat): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'request.malformed',
    'The request is malformed.',
  ];
  const response = formatError(new HttpLayerError(status, code, message), format);
  const body = JSON.stringify(response.body);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_LINES[status] ?? 'Bad Request'}`,
    `Content-Type: ${response.contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  // Written, then the socket destroyed (as Node's own handler does): a client still sending (a body
  // trickled a byte a second) must not keep the connection open after its answer.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref(); // a client that reads nothing cannot hold it either
}
