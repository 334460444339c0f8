import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@marketplace/testing';

/*
 * A scripted Standard Delivery Provider, in the test process: node:http on 127.0.0.1 serving the
 * contract's endpoints under /v1 (POST /deliveries, GET /deliveries/{id}/status and /tracking,
 * POST /deliveries/{id}/cancel). It records every request it receives (anything on any path,
 * with its arrival time, headers and exact body) and answers as the test scripted it for the
 * delivery concerned: the create by its platformReference, the other calls by the
 * providerDeliveryId it minted on the accepting create. A delivery without a script is accepted,
 * and its status and tracking are its last reported state (`report`).
 */

/** One request as the scripted provider received it. */
export interface RecordedRequest {
  /** Arrival time (ms since the epoch). */
  at: number;
  method: string;
  /** The path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes as UTF-8 ('' when none). */
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: any;
}

/** How one call is answered. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON (application/json; charset=utf-8) unless a string or Buffer. */
  body?: unknown;
  /** Hold the request this long before answering (or closing, with `close`). */
  delayMs?: number;
  /** Destroy the socket instead of answering (after `delayMs`). */
  close?: boolean;
}

/** What the provider knows of one delivery, as its status and tracking reads give it. */
export interface ScriptedState {
  status: string;
  eventTimeUtc: string;
  driverName: string | null;
  driverPhone: string | null;
  driverLat: number | null;
  driverLng: number | null;
  trackingUrl: string | null;
  estimatedDeliveryAtUtc: string | null;
}

/** A delivery's script: each function gets the 1-based number of the call of its kind; undefined: the default answer. */
export interface DeliveryScript {
  create?: (attempt: number, request: RecordedRequest) => ScriptedAnswer | undefined;
  status?: (call: number, delivery: ScriptedDelivery) => ScriptedAnswer | undefined;
  tracking?: (call: number, delivery: ScriptedDelivery) => ScriptedAnswer | undefined;
  cancel?: (call: number, delivery: ScriptedDelivery) => ScriptedAnswer | undefined;
}

export interface ScriptedDelivery {
  platformReference: string;
  providerDeliveryId: string;
  state: ScriptedState;
}

export interface ScriptedProvider {
  /** The origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The base URL a connection is registered with: `<origin>/v1`. */
  baseUrl: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** The script for the delivery with this platformReference (the assignment id). */
  script(platformReference: string, script: DeliveryScript): void;
  /** The creates received for a platformReference, in order. */
  createsFor(platformReference: string): RecordedRequest[];
  /** The delivery accepted for a platformReference, if any. */
  deliveryOf(platformReference: string): ScriptedDelivery | undefined;
  /** The requests on /v1/deliveries/<id>/..., in order; `suffix` e.g. 'status', 'cancel'. */
  callsFor(providerDeliveryId: string, suffix?: string): RecordedRequest[];
  /** Changes what the delivery's status and tracking reads answer. */
  report(providerDeliveryId: string, state: Partial<ScriptedState>): void;
  close(): Promise<void>;
}

/** How long a create for a platformReference the test has not scripted yet waits for its script. */
const SCRIPT_WAIT_MS = 10_000;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  body,
  headers,
});

export const accepted = (providerDeliveryId: string): ScriptedAnswer =>
  json(200, { accepted: true, providerDeliveryId, providerTrackingId: `trk-${providerDeliveryId}` });

export const envelope = (status: number, code: string, retryable: boolean, headers: Record<string, string> = {}) =>
  json(status, { code, message: `scripted ${code}`, retryable }, headers);

function send(res: ServerResponse, answer: ScriptedAnswer): void {
  const raw =
    answer.body === undefined
      ? ''
      : typeof answer.body === 'string' || Buffer.isBuffer(answer.body)
        ? answer.body
        : JSON.stringify(answer.body);
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(raw);
  res.writeHead(answer.status, headers);
  res.end(raw);
}

export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, DeliveryScript>();
  const byReference = new Map<string, ScriptedDelivery>();
  const byId = new Map<string, ScriptedDelivery>();
  const counts = new Map<string, number>();
  const held = new Set<ServerResponse>();
  let minted = 0;

  const count = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };

  const scriptFor = async (reference: string): Promise<DeliveryScript> => {
    const deadline = Date.now() + SCRIPT_WAIT_MS;
    while (!scripts.has(reference) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return scripts.get(reference) ?? {};
  };

  const answerCreate = async (request: RecordedRequest): Promise<ScriptedAnswer> => {
    const reference: unknown = request.json?.platformReference;
    if (typeof reference !== 'string') return envelope(400, 'request.malformed', false);
    const script = await scriptFor(reference);
    const attempt = count(`create:${reference}`);
    const known = byReference.get(reference);
    const answer = script.create?.(attempt, request) ?? (known ? accepted(known.providerDeliveryId) : undefined);
    if (answer && !(answer.status === 200 && answer.body && (answer.body as any).accepted === true)) return answer;
    // Accepted: the delivery exists from now on (a replay names the same one).
    const delivery = known ?? {
      platformReference: reference,
      providerDeliveryId:
        (answer?.body as { providerDeliveryId?: string } | undefined)?.providerDeliveryId ??
        `sd-${++minted}-${randomBytes(4).toString('hex')}`,
      state: {
        status: 'provider_accepted',
        eventTimeUtc: new Date().toISOString(),
        driverName: null,
        driverPhone: null,
        driverLat: null,
        driverLng: null,
        trackingUrl: null,
        estimatedDeliveryAtUtc: null,
      },
    };
    byReference.set(reference, delivery);
    byId.set(delivery.providerDeliveryId, delivery);
    return answer ?? accepted(delivery.providerDeliveryId);
  };

  const answerDelivery = (request: RecordedRequest, id: string, action: string): ScriptedAnswer => {
    const delivery = byId.get(id);
    if (!delivery) return envelope(404, 'delivery.not_found', false);
    const script = scripts.get(delivery.platformReference) ?? {};
    const n = count(`${action}:${id}`);
    if (action === 'status' && request.method === 'GET')
      return (
        script.status?.(n, delivery) ??
        json(200, { status: delivery.state.status, eventTimeUtc: delivery.state.eventTimeUtc })
      );
    if (action === 'tracking' && request.method === 'GET') {
      const { status: _status, ...tracking } = delivery.state;
      return script.tracking?.(n, delivery) ?? json(200, tracking);
    }
    if (action === 'cancel' && request.method === 'POST')
      return script.cancel?.(n, delivery) ?? json(200, { confirmed: true });
    return envelope(405, 'request.method_not_allowed', false);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: unknown;
      try {
        parsed = body ? JSON.parse(body) : undefined;
      } catch {
        parsed = undefined;
      }
      const request: RecordedRequest = {
        at: Date.now(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: parsed,
      };
      requests.push(request);
      const path = request.path.split('?')[0]!;
      const route = /^\/v1\/deliveries\/([^/]+)\/(status|tracking|cancel)$/.exec(path);
      const answering =
        path === '/v1/deliveries' && request.method === 'POST'
          ? answerCreate(request)
          : Promise.resolve(
              route
                ? answerDelivery(request, decodeURIComponent(route[1]!), route[2]!)
                : envelope(404, 'route.not_found', false),
            );
      void answering.then((answer) => {
        const finish = () => {
          held.delete(res);
          if (res.destroyed) return;
          if (answer.close) res.destroy();
          else send(res, answer);
        };
        if (!answer.delayMs) return finish();
        held.add(res);
        const timer = setTimeout(finish, answer.delayMs);
        res.on('close', () => {
          clearTimeout(timer);
          held.delete(res);
        });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  if (address.port !== port) throw new Error(`scripted provider listens on ${address.port}, not ${port}`);

  const deliveryPath = (id: string) => `/v1/deliveries/${encodeURIComponent(id)}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    script: (reference, script) => scripts.set(reference, script),
    createsFor: (reference) =>
      requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/deliveries' && r.json?.platformReference === reference,
      ),
    deliveryOf: (reference) => byReference.get(reference),
    callsFor: (id, suffix) =>
      requests.filter((r) =>
        suffix === undefined ? r.path.startsWith(`${deliveryPath(id)}/`) : r.path === `${deliveryPath(id)}/${suffix}`,
      ),
    report: (id, state) => {
      const delivery = byId.get(id);
      if (!delivery) throw new Error(`the scripted provider has no delivery ${id}`);
      delivery.state = { ...delivery.state, ...state };
    },
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
