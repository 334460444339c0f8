import {
  providerApiDocument,
  requestSchemas,
  type ProviderCancelRequest,
  type ProviderCreateDeliveryRequest,
  type ProviderReturnRequest,
  type ProviderUpdateDeliveryRequest,
  type ProviderWebhookTestRequest,
} from '@marketplace/contracts';
import { isAppError, type FieldErrors } from '@marketplace/errors';
import { bodyValidator, isUuid, outboundUrlProblem, requestBody, type RouteTable } from '@marketplace/http';
import { deliveryNotFound } from '../domain/errors';
import type { ProviderContext } from '../usecases/context';
import { admitChange } from '../usecases/deliveries/admit-change';
import { cancelDelivery } from '../usecases/deliveries/cancel-delivery';
import { createDelivery } from '../usecases/deliveries/create-delivery';
import { readDelivery } from '../usecases/deliveries/read-delivery';
import { returnDelivery } from '../usecases/deliveries/return-delivery';
import { updateDelivery } from '../usecases/deliveries/update-delivery';
import { sendTestEvent } from '../usecases/webhooks/send-test-event';
import { platformAccountOf } from './auth';
import { statusView, trackingView } from './views';

/** Callback URL fields of the request bodies, and where each is in its body. */
const CALLBACK_FIELDS: Record<string, (body: Record<string, unknown>) => unknown> = {
  'webhook.url': (body) => (body.webhook as Record<string, unknown> | null | undefined)?.url,
  url: (body) => body.url,
};

/**
 * A callback URL the schema's pattern refused gets the message of the rule it breaks (credentials,
 * a port, a fragment, not https), not the pattern itself.
 */
function explainCallbackPatterns(errors: FieldErrors, body: unknown): void {
  for (const [field, valueOf] of Object.entries(CALLBACK_FIELDS)) {
    const messages = errors[field];
    if (!messages?.some((m) => m.startsWith('must match pattern'))) continue;
    const value = typeof body === 'object' && body !== null ? valueOf(body as Record<string, unknown>) : undefined;
    const problem =
      typeof value === 'string'
        ? (outboundUrlProblem(value, { allowLoopbackHttp: false, standardPortOnly: true }) ??
          'must be an absolute https URL')
        : 'must be an absolute https URL';
    errors[field] = messages.map((m) => (m.startsWith('must match pattern') ? problem : m));
  }
}

/**
 * A request body checked against its contract schema: invalid fields are 422 `request.invalid` with
 * `fieldErrors`, as the contract says (a body that is not JSON is 400 `request.malformed`, from the
 * HTTP layer); a refused callback URL says which rule it breaks. The schemas are open: a property
 * they do not name, at any level (`webhook` included), is accepted and dropped here (versioning
 * rule 1: a new optional request property is backward compatible), so the use cases, the store and
 * the create's idempotency fingerprint only ever see the contract's fields.
 */
function contractBody<T>(schema: Parameters<typeof bodyValidator>[0]) {
  const validate = bodyValidator<T>(schema, { status: 422, dropUnknown: true });
  return (body: unknown): T => {
    try {
      return validate(body);
    } catch (error) {
      if (isAppError(error) && error.fieldErrors) explainCallbackPatterns(error.fieldErrors, body);
      throw error;
    }
  };
}

const validateCreate = contractBody<ProviderCreateDeliveryRequest>(requestSchemas.ProviderCreateDeliveryRequest);
const validateUpdate = contractBody<ProviderUpdateDeliveryRequest>(requestSchemas.ProviderUpdateDeliveryRequest);
const validateCancel = contractBody<ProviderCancelRequest>(requestSchemas.ProviderCancelRequest);
const validateReturn = contractBody<ProviderReturnRequest>(requestSchemas.ProviderReturnRequest);
const validateTest = contractBody<ProviderWebhookTestRequest>(requestSchemas.ProviderWebhookTestRequest);

/** Our ids are uuids: anything else names no delivery (the same 404 as an unknown one). */
export function deliveryIdOf(value: string | undefined): string {
  if (!value || !isUuid(value)) throw deliveryNotFound();
  return value.toLowerCase();
}

/** The provider contract's API under `/v1` (the platform guard has found the caller's account). */
export function registerPlatformRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.get('/v1/openapi.json', 'public', (c) => {
    c.set('Cache-Control', 'public, max-age=300');
    c.body = providerApiDocument;
  });
  routes.post('/v1/deliveries', 'platform', async (c) => {
    c.body = await createDelivery(ctx, platformAccountOf(c), validateCreate(requestBody(c)));
  });
  routes.get('/v1/deliveries/:providerDeliveryId/status', 'platform', async (c) => {
    const account = platformAccountOf(c);
    c.body = statusView(await readDelivery(ctx, { accountId: account.id }, deliveryIdOf(c.params.providerDeliveryId)));
  });
  routes.get('/v1/deliveries/:providerDeliveryId/tracking', 'platform', async (c) => {
    const account = platformAccountOf(c);
    c.body = trackingView(
      await readDelivery(ctx, { accountId: account.id }, deliveryIdOf(c.params.providerDeliveryId)),
    );
  });
  // PATCH, cancel and return answer an unknown delivery (or another account's) 404 before anything
  // else: before the capability (403) and before the body's fields (422). `admitChange` does the
  // first two; a body that is not JSON is still 400, from the HTTP layer, before any of them.
  routes.patch('/v1/deliveries/:providerDeliveryId', 'platform', async (c) => {
    const account = platformAccountOf(c);
    const id = deliveryIdOf(c.params.providerDeliveryId);
    await admitChange(ctx, account, id, 'supportsUpdates');
    c.body = await updateDelivery(ctx, account, id, validateUpdate(requestBody(c)));
  });
  routes.post('/v1/deliveries/:providerDeliveryId/cancel', 'platform', async (c) => {
    const account = platformAccountOf(c);
    const id = deliveryIdOf(c.params.providerDeliveryId);
    await admitChange(ctx, account, id, 'supportsCancellation');
    c.body = await cancelDelivery(ctx, account, id, validateCancel(requestBody(c)).stage);
  });
  routes.post('/v1/deliveries/:providerDeliveryId/return', 'platform', async (c) => {
    const account = platformAccountOf(c);
    const id = deliveryIdOf(c.params.providerDeliveryId);
    await admitChange(ctx, account, id, 'supportsReturnToOrigin');
    c.body = await returnDelivery(ctx, account, id, validateReturn(requestBody(c)).reasonCode);
  });
  routes.post('/v1/webhooks/test', 'platform', async (c) => {
    c.body = await sendTestEvent(ctx, platformAccountOf(c), validateTest(requestBody(c) ?? {}));
  });
}
