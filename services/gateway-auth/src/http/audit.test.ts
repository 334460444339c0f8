import { AppError } from '@marketplace/errors';
import type { RequestState } from '@marketplace/http';
import type { BearerClaims } from '@marketplace/identity';
import type { GatewayContext } from '../usecases/context';
import type { AuditEvent } from '../domain/entities';
import { auditMutations } from './audit';

// The audit middleware alone, with a stand-in store: what an event says, that it is written
// whatever the outcome, and that a failed write changes nothing of the answer.

const NOW = new Date('2026-11-22T08:00:00.000Z');
const TENANT = '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11';
const INSTALLATION = '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f12';
const ROUTE = '/api/tenant/v1/installations/:installationId/api-key/rotate';

function gateway(append: (event: AuditEvent) => Promise<void>) {
  const counted = { failures: 0, warnings: 0 };
  const ctx = {
    now: () => NOW,
    store: { auditEvents: { append } },
    auditMetrics: { writeFailed: () => void counted.failures++ },
    logger: { warn: () => void counted.warnings++ },
  } as unknown as GatewayContext;
  return { ctx, counted };
}

function request(method: string, bearer: BearerClaims | undefined, params: Record<string, unknown> = {}) {
  return {
    method,
    status: 404,
    ip: '203.0.113.7',
    params,
    _matchedRoute: ROUTE,
    state: { requestId: 'req-1', ...(bearer ? { bearer } : {}) } as RequestState,
  };
}

const tenant: BearerClaims = { role: 'tenant', sub: `tenant:${TENANT}`, tid: TENANT, jti: 'token-1' };
type Ctx = Parameters<ReturnType<typeof auditMutations>>[0];
const run = (ctx: GatewayContext, req: ReturnType<typeof request>, next: () => Promise<void>) =>
  auditMutations(ctx)(req as unknown as Ctx, next);

it('records who did what, where from and how it went, after the handler', async () => {
  const events: AuditEvent[] = [];
  const { ctx } = gateway(async (e) => void events.push(e));
  const req = request('POST', tenant, { installationId: INSTALLATION });
  await run(ctx, req, async () => {
    expect(events).toHaveLength(0); // written after the handler
    req.status = 200;
  });
  expect(events).toEqual([
    {
      _id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      at: NOW,
      tenantId: TENANT,
      actor: { role: 'tenant', sub: `tenant:${TENANT}`, tenantId: TENANT, tokenId: 'token-1' },
      action: `POST ${ROUTE}`,
      method: 'POST',
      route: ROUTE,
      target: { installationId: INSTALLATION },
      status: 200,
      ip: '203.0.113.7',
      requestId: 'req-1',
    },
  ]);
});

it("records an administrator's action on a tenant under that tenant", async () => {
  const events: AuditEvent[] = [];
  const { ctx } = gateway(async (e) => void events.push(e));
  const req = request('POST', { role: 'admin', sub: 'ops@example.com' }, { tenantId: TENANT.toUpperCase() });
  await run(ctx, req, async () => void (req.status = 201));
  expect(events[0]).toMatchObject({
    tenantId: TENANT,
    actor: { role: 'admin', sub: 'ops@example.com', tenantId: null, tokenId: null },
    status: 201,
  });
});

it('records a failed request with the status it is answered with, and lets the error through', async () => {
  const events: AuditEvent[] = [];
  const { ctx } = gateway(async (e) => void events.push(e));
  const conflict = new AppError('conflict', 'marketplace.installation.not_connected', 'Not connected.');
  await expect(run(ctx, request('POST', tenant), () => Promise.reject(conflict))).rejects.toBe(conflict);
  await expect(run(ctx, request('DELETE', tenant), () => Promise.reject(new Error('bug')))).rejects.toThrow('bug');
  expect(events.map((e) => [e.method, e.status])).toEqual([
    ['POST', 409],
    ['DELETE', 500],
  ]);
});

it('records nothing for reads', async () => {
  const events: AuditEvent[] = [];
  const { ctx } = gateway(async (e) => void events.push(e));
  for (const method of ['GET', 'HEAD', 'OPTIONS']) await run(ctx, request(method, tenant), async () => undefined);
  expect(events).toEqual([]);
});

it('a failed write is logged and counted, and the answer stays what it was', async () => {
  const { ctx, counted } = gateway(() => Promise.reject(new Error('database away')));
  const req = request('POST', tenant, { installationId: INSTALLATION });
  await run(ctx, req, async () => void (req.status = 200));
  expect(req.status).toBe(200);
  expect(counted).toEqual({ failures: 1, warnings: 1 });
  // The same when the handler failed: its own error goes on, not the write's.
  const refused = new AppError('not_found', 'resource.not_found', 'Not found.');
  await expect(run(ctx, request('POST', tenant), () => Promise.reject(refused))).rejects.toBe(refused);
  expect(counted).toEqual({ failures: 2, warnings: 2 });
});
