import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyMarketplaceWebhook, verifyPlatformCallback } from 'marketplace-webhooks';

/** One request as the receiver got it: the raw body bytes and the headers. */
export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer with headers of its own (a Retry-After, say), or given after a while (a slow endpoint). */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A partner's webhook endpoint in the test process (plain HTTP on loopback, which the services
 * allow only with ALLOW_LOOPBACK_HTTP_URLS=true). `respond` decides each answer: a status, a
 * status with headers, or 'hang' to never answer (a timeout).
 */
export interface Receiver {
  url: string;
  received: Received[];
  /** Requests to one path (each test its own path). */
  at(path: string): Received[];
  respond: (req: Received, nth: number) => number | ReceiverAnswer | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  const receiver: Receiver = {
    url: '',
    received,
    at: (path) => received.filter((r) => r.path === path),
    respond: () => 200,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        at: Date.now(),
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      const nth = (counts.get(entry.path) ?? 0) + 1;
      counts.set(entry.path, nth);
      const answer = receiver.respond(entry, nth);
      if (answer === 'hang') return; // never answers: the sender's response timeout fires
      const { status, headers = {}, delayMs = 0 } = typeof answer === 'number' ? { status: answer } : answer;
      const reply = () => {
        res.statusCode = status;
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.end(status >= 300 && status < 400 ? '' : 'ok');
      };
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = receiver.close;
  receiver.close = () => {
    server.closeAllConnections();
    return close();
  };
  return receiver;
}

/**
 * The receiver's check of a marketplace webhook: the partners' own verifier (kits/webhooks, written
 * from the spec, independently of the sender's code), so every test that checks what the real
 * sender sent also tests the package partners use. The timestamp is judged against the time the
 * request arrived, with the package's default tolerance of 5 minutes.
 */
export function verifySignature(request: Received, secret: string): boolean {
  return verifyMarketplaceWebhook({ body: request.body, headers: request.headers, secret, now: request.at }).ok;
}

/**
 * The platform's check of a delivery-provider callback ("Authentication" of the provider contract),
 * by the same package: HMAC-SHA256 over the raw body bytes alone, lowercase hex without a prefix in
 * X-Platform-Signature, compared in constant time.
 */
export function verifyPlatformSignature(request: Received, secret: string): boolean {
  return verifyPlatformCallback({ body: request.body, headers: request.headers, secret }).ok;
}
