import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Declaration } from '../../../src/model';
import { createDelivery } from './create';
import { FAULTY_PROVIDER_DECLARATION } from './declaration';
import type { Defect } from './defects';
import { cancelDelivery, readStatus, readTracking, returnDelivery, testWebhook, updateDelivery } from './deliveries';
import { type Answer, errorAnswer, readBody, writeAnswer } from './http';
import { Sandbox } from './sandbox';
import { KeyedLock, type ProviderState } from './state';
import { WebhookSender } from './webhooks';

export { DEFECTS, DEFECT_CATCHERS, type Defect } from './defects';
export { FAULTY_PROVIDER_DECLARATION } from './declaration';

/**
 * The kit's deliberately faulty provider: a small, correct, in-memory implementation of the
 * Standard Delivery Provider Contract v1.1.0 over HTTP, with switchable defects (defects.ts).
 * Without defects the kit must pass it; with one, exactly the tests named for it must fail.
 */
export interface FaultyProviderOptions {
  defects?: ReadonlySet<Defect> | readonly Defect[];
  /** How often the sandbox courier moves each delivery one step (default 150 ms). */
  stepMs?: number;
  /** The first webhook retry's delay, doubling after (default 300 ms). */
  retryBaseMs?: number;
}

export interface FaultyProvider {
  /** Ends in /v1. */
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  declaration: Declaration;
  close(): Promise<void>;
}

export async function startFaultyProvider(options: FaultyProviderOptions = {}): Promise<FaultyProvider> {
  const apiKey = `fp_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = `fp_whsec_${randomBytes(24).toString('hex')}`;
  const defects = new Set<Defect>(options.defects ?? []);
  const sender = new WebhookSender(options.retryBaseMs ?? 300);
  const sandbox = new Sandbox({ stepMs: options.stepMs ?? 150, defects, sender, webhookSecret });
  const state: ProviderState = {
    apiKey,
    webhookSecret,
    defects,
    sandbox,
    sender,
    idempotency: new Map(),
    locks: new KeyedLock(),
  };
  const server = createServer((req, res) => void serve(state, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    webhookSecret,
    declaration: FAULTY_PROVIDER_DECLARATION,
    close: async () => {
      sandbox.close();
      sender.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(state: ProviderState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    // The whole body is read first, so even a refused request gets its answer.
    const body = await readBody(req);
    const authorization = req.headers.authorization;
    if (authorization === undefined && state.defects.has('redirect')) {
      return writeAnswer(res, { status: 302, headers: { location: '/login' } });
    }
    if (!authorized(authorization, state.apiKey)) {
      return writeAnswer(res, errorAnswer(401, 'unauthorized', 'Missing or invalid credentials.'));
    }
    if (body.tooLarge) return writeAnswer(res, errorAnswer(413, 'payload_too_large', 'The body is over 1 MiB.'));
    writeAnswer(
      res,
      await route(state, req.method ?? 'GET', new URL(req.url ?? '/', 'http://provider').pathname, body.text),
    );
  } catch {
    if (!res.headersSent) writeAnswer(res, errorAnswer(500, 'internal_error', 'Unexpected provider failure.'));
  }
}

/** "Authentication": `Authorization: Bearer <API_KEY>`, compared in constant time. */
function authorized(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(header ?? '');
  if (match === null) return false;
  const given = Buffer.from(match[1]!, 'utf8');
  const expected = Buffer.from(apiKey, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** "Endpoints", relative to /v1. */
async function route(state: ProviderState, method: string, pathname: string, text: string): Promise<Answer> {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] !== 'v1') return errorAnswer(404, 'not_found', 'No such resource.');
  const [resource, rawId, action] = segments.slice(1);
  if (resource === 'webhooks' && rawId === 'test' && action === undefined && method === 'POST')
    return testWebhook(state, text);
  if (resource !== 'deliveries' || segments.length > 4) return errorAnswer(404, 'not_found', 'No such resource.');
  if (rawId === undefined) return method === 'POST' ? createDelivery(state, text) : methodNotAllowed();
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return errorAnswer(404, 'not_found', 'No such delivery.');
  }
  const handlers: Record<string, () => Answer | Promise<Answer>> = {
    'GET status': () => readStatus(state, id),
    'GET tracking': () => readTracking(state, id),
    'PATCH ': () => updateDelivery(state, id, text),
    'POST cancel': () => cancelDelivery(state, id, text),
    'POST return': () => returnDelivery(state, id, text),
  };
  const handler = handlers[`${method} ${action ?? ''}`];
  if (handler !== undefined) return handler();
  const known = ['status', 'tracking', 'cancel', 'return', undefined].includes(action);
  return known ? methodNotAllowed() : errorAnswer(404, 'not_found', 'No such resource.');
}

const methodNotAllowed = (): Answer => errorAnswer(405, 'method_not_allowed', 'This method is not allowed here.');
