import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  IDENTITY_HEADER,
  publicKeyFrom,
  verifyIdentity,
  type CallerIdentity,
  type HeldAssignment,
} from '@marketplace/identity';
import { localEnv } from '@marketplace/testing';

const OWNER_SERVICES = ['catalog', 'ordering-pricing', 'delivery-assignment', 'webhook-sender'];

/** What the stand-in owner service saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  identity: CallerIdentity | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A stand-in for the internal services that own Partner API routes (catalog, ordering, delivery
 * arrive with their own issues): it verifies the gateway's signed identity exactly as they do and
 * answers with what it saw. A request body may steer the answer: `{"respondWith": 409}` answers
 * that status, `{"delayMs": 300}` answers late. Mutations count per path, to prove "exactly once".
 * As delivery-assignment, it answers who holds an order's live assignment (the gateway asks before a
 * provider's order read) from `held`: 404 for an order not in it, or the status set for it.
 */
export class TestUpstream {
  readonly seen: SeenRequest[] = [];
  /** orderId → the assignment the caller holds (any caller), or a status to answer instead. */
  readonly held = new Map<string, HeldAssignment | number>();
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    const publicKey = publicKeyFrom(localEnv().INTERNAL_IDENTITY_PUBLIC_KEY!);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '/').split('?')[0]!;
        // This stand-in serves as any owner: the identity must have been issued for one of them.
        const identity = OWNER_SERVICES.map((service) =>
          verifyIdentity(publicKey, req.headers[IDENTITY_HEADER] as string | undefined, {
            method: req.method ?? '',
            path,
            service,
          }),
        ).find(Boolean);
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', identity, headers: req.headers, body });
        if (!identity) {
          res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"status":401}');
          return;
        }
        const heldOf = /^\/api\/partner\/v1\/orders\/([^/]+)\/held-assignment$/.exec(path);
        if (heldOf) {
          const held = this.held.get(decodeURIComponent(heldOf[1]!));
          const status = held === undefined ? 404 : typeof held === 'number' ? held : 200;
          const type = status === 200 ? 'application/json; charset=utf-8' : 'application/problem+json';
          res.writeHead(status, { 'content-type': type }).end(JSON.stringify(status === 200 ? held : { status }));
          return;
        }
        let steer: { respondWith?: number; delayMs?: number } = {};
        try {
          steer = body ? JSON.parse(body) : {};
        } catch {
          steer = {};
        }
        const delayInQuery = /[?&]delayMs=(\d+)/.exec(req.url ?? '');
        if (delayInQuery) steer.delayMs = Number(delayInQuery[1]);
        const status = steer.respondWith ?? (req.method === 'POST' ? 201 : 200);
        const answer = JSON.stringify({
          seq: this.seen.length,
          method: req.method,
          url: req.url,
          identity,
          body: body || null,
        });
        setTimeout(() => {
          const type = status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8';
          const headers: Record<string, string> = { 'content-type': type, 'x-internal-detail': 'not-for-partners' };
          if (status === 201) headers.location = `/api/partner/v1/things/${this.seen.length}`;
          res.writeHead(status, headers).end(answer);
        }, steer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  executions(method: string, path: string): number {
    return this.seen.filter((r) => r.method === method && r.url.split('?')[0] === path && r.identity).length;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
