import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { tenantWebhooksApiDocument } from './tenant-webhooks-api';

/** @seriousme/openapi-schema-validator is ESM-only: a child Node process runs it on the document. */
function validateOpenApi(doc: unknown): { valid: boolean; errors: unknown } {
  const moduleUrl = pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href;
  const script = `
    import { Validator } from ${JSON.stringify(moduleUrl)};
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const result = await new Validator().validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors ?? null }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(doc), encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`validator process failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}

type Json = Record<string, any>;
function validator(name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const $defs = JSON.parse(JSON.stringify((tenantWebhooksApiDocument.components as Json).schemas).replace(/#\/components\/schemas\//g, '#/$defs/'));
  ajv.addSchema({ $id: 'https://openapi.test/webhooks.json', $defs });
  const validate = ajv.getSchema(`https://openapi.test/webhooks.json#/$defs/${name}`)!;
  return (value: unknown) => validate(value) as boolean;
}

it('is valid OpenAPI 3.1 with a unique id, the tenant token and a 401 on every operation', () => {
  const result = validateOpenApi(tenantWebhooksApiDocument);
  expect(result.errors).toBeNull();
  expect(result.valid).toBe(true);
  const ids = Object.values(tenantWebhooksApiDocument.paths as Json).flatMap((item) => Object.values(item as Json).map((op: Json) => {
    expect(op.security).toEqual([{ tenantToken: [] }]);
    expect(op.responses['401']).toBeDefined();
    return op.operationId;
  }));
  expect(new Set(ids).size).toBe(ids.length);
});

it('describes deliveries the way the service answers them', () => {
  const delivery = {
    id: '7f0c1a52-8a43-8f55-9d2b-0b1f4b9c7a11',
    installationId: '7f0c1a52-8a43-4f55-9d2b-0b1f4b9c7a12',
    type: 'orders.created',
    status: 'dead_lettered',
    reason: 'no success after 8 attempts',
    round: 1,
    attemptCount: 1,
    nextAttemptAt: null,
    occurredAt: '2026-11-23T10:00:00.000Z',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    attempts: [{ round: 1, attempt: 1, at: '2026-11-23T10:00:00.000Z', statusCode: 503, latencyMs: 12, errorClass: null, verdict: 'retry' }],
  };
  expect(validator('Delivery')(delivery)).toBe(true);
  expect(validator('Delivery')({ ...delivery, secret: 'x' })).toBe(false);
  const payload = { id: delivery.id, type: 'orders.created', version: 1, occurredAt: delivery.occurredAt, data: { orderId: 'o' } };
  expect(validator('DeliveryWithPayload')({ ...delivery, payload })).toBe(true);
  expect(validator('DeliveryWithPayload')({ ...delivery, payload: { ...payload, version: 2 } })).toBe(false);
});
