import { componentValidator } from '@marketplace/testing';
import { PARTNER_EXTENSION_ROUTES } from '../../domain/partner-extension-routes';
import { hasScope, PARTNER_PREFIX } from '../../domain/partner-routes';
import { partnerApiDocument, type Json } from './partner-api';
import { SANDBOX_SCENARIOS } from '@marketplace/contracts';
import { SANDBOX } from '../../domain/sandbox';
import { SANDBOX_SCENARIOS_PATH } from '../partner/sandbox-routes';
import { SANDBOX_TAG, WEBHOOK_DELIVERIES_TAG } from './partner-extension-api';

// Our extension of the Partner API v1 (the installation's own webhook deliveries): documented in the
// Partner API document under its own tag, which says it is ours, not the specification's; no scope.

const paths = partnerApiDocument.paths as Record<string, Record<string, Json>>;
const extensionOps = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => (op.tags as string[] | undefined)?.includes(WEBHOOK_DELIVERIES_TAG))
    .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);

it('documents exactly the gateway routes of the extension, under its own tag that says it is ours', () => {
  const routes = PARTNER_EXTENSION_ROUTES.map(
    (r) => `${r.method} ${PARTNER_PREFIX}${r.pattern.replace(/:(\w+)/g, '{$1}')}`,
  );
  expect(extensionOps.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(routes.sort());
  const tag = (partnerApiDocument.tags as Json[]).find((t) => t.name === WEBHOOK_DELIVERIES_TAG)!;
  expect(String(tag.description)).toMatch(/extension of v1: ours, not the specification's/);
  expect(String((partnerApiDocument.info as Json).description)).toContain('## Extension: webhook deliveries');
});

it('asks no scope: any valid key of the installation, in the document and at the gateway', () => {
  for (const { op } of extensionOps) {
    expect(op['x-required-scopes']).toEqual([]);
    expect(op.security).toEqual([{ partnerApiKey: [] }]);
    expect(String(op.description)).toContain('any valid API key of the installation');
  }
  for (const route of PARTNER_EXTENSION_ROUTES) {
    expect(route.owner).toBe('webhooks');
    expect(hasScope(route, [])).toBe(true);
  }
});

it('requires an Idempotency-Key on the redelivery only, and documents 404, 409 and 202', () => {
  const keyed = extensionOps.filter(({ op }) =>
    ((op.parameters as Json[]) ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey'),
  );
  expect(keyed.map(({ op }) => op.operationId)).toEqual(['redeliverWebhookDelivery']);
  const redeliver = keyed[0]!.op.responses as Record<string, Json>;
  expect(Object.keys(redeliver)).toEqual(expect.arrayContaining(['202', '400', '401', '404', '409', '429']));
  expect(redeliver['409']!['x-error-codes']).toEqual(
    expect.arrayContaining([
      'webhook.delivery_in_progress',
      'webhook.installation_not_receiving',
      'idempotency.key_reused',
    ]),
  );
});

it('describes a delivery with its attempts, and one with its body as text', () => {
  const attempt = {
    round: 1,
    attempt: 1,
    at: '2026-11-28T10:00:00.000Z',
    statusCode: null,
    latencyMs: 5002,
    errorClass: 'timeout',
    verdict: 'retry',
  };
  const delivery = {
    id: '5b0e8a52-4a3c-8c47-9d1b-2b2c5a0a6f10',
    installationId: '5b0e8a52-4a3c-4c47-9d1b-2b2c5a0a6f11',
    type: 'orders.created',
    status: 'pending',
    reason: null,
    round: 1,
    attemptCount: 1,
    nextAttemptAt: '2026-11-28T10:02:00.000Z',
    occurredAt: '2026-11-28T09:59:59.000Z',
    createdAt: '2026-11-28T10:00:00.000Z',
    updatedAt: '2026-11-28T10:00:05.000Z',
    attempts: [attempt],
  };
  expect(componentValidator(partnerApiDocument, 'WebhookDelivery')(delivery)).toBe(true);
  expect(componentValidator(partnerApiDocument, 'WebhookDelivery')({ ...delivery, status: 'lost' })).toBe(false);
  const detail = componentValidator(partnerApiDocument, 'WebhookDeliveryDetail');
  expect(detail({ ...delivery, body: '{"id":"x"}' })).toBe(true);
  expect(detail({ ...delivery, body: { id: 'x' } })).toBe(false);
});

describe('the sandbox (our extension too)', () => {
  const sandboxOps = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => (op.tags as string[] | undefined)?.includes(SANDBOX_TAG))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

  it('documents the one route the gateway serves for it, under its own tag, with every scenario of the table', () => {
    expect(sandboxOps.map(({ method, path }) => `${method} ${path}`)).toEqual([`POST ${SANDBOX_SCENARIOS_PATH}`]);
    const tag = (partnerApiDocument.tags as Json[]).find((t) => t.name === SANDBOX_TAG)!;
    expect(String(tag.description)).toMatch(/extension of v1: ours, not the specification's/);
    const description = String(sandboxOps[0]!.op.description);
    for (const [name, scenario] of Object.entries(SANDBOX)) {
      expect(description).toContain(`| \`${name}\` |`);
      for (const emitted of scenario.emits) expect(description).toContain(`\`${emitted.type}\``);
    }
    expect(Object.keys(SANDBOX).sort()).toEqual([...SANDBOX_SCENARIOS].sort());
  });

  it('asks no scope, requires an Idempotency-Key, and documents 403 sandbox.not_a_sandbox', () => {
    const op = sandboxOps[0]!.op;
    expect(op['x-required-scopes']).toEqual([]);
    expect(((op.parameters as Json[]) ?? []).map((p) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
    const forbidden = (op.responses as Record<string, Json>)['403']!;
    expect(forbidden['x-error-codes']).toEqual(expect.arrayContaining(['sandbox.not_a_sandbox']));
  });

  it("describes the scenario's answer", () => {
    const validate = componentValidator(partnerApiDocument, 'SandboxScenarioResult');
    expect(
      validate({
        scenario: 'delivery.assign',
        does: SANDBOX['delivery.assign'].does,
        emits: SANDBOX['delivery.assign'].emits,
        outcome: { assignmentId: 'a' },
      }),
    ).toBe(true);
    expect(validate({ scenario: 'nope', does: '', emits: [], outcome: null })).toBe(false);
  });
});
