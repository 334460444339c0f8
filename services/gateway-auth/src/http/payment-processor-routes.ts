import type { RouterContext } from '@koa/router';
import { rawRequestBody, type RequestState, type RouteMiddleware, type RouteTable } from '@marketplace/http';
import { unauthenticated } from '@marketplace/identity';
import {
  PROCESSOR_SIGNATURE_HEADER,
  PROCESSOR_TIMESTAMP_HEADER,
  timestampAcceptable,
} from '../domain/processor-signature';
import type { GatewayContext } from '../usecases/context';
import type { ForwardRouting } from '../usecases/forward-to-owner';
import { processorNotificationPath, type ProcessorSettings } from '../domain/processor-secrets';
import { authenticateProcessor } from '../usecases/payment-processor/authenticate-processor';
import { getProcessorSettings } from '../usecases/payment-processor/get-processor-settings';
import { revokeProcessorSecrets } from '../usecases/payment-processor/revoke-processor-secrets';
import { rotateProcessorSecret } from '../usecases/payment-processor/rotate-processor-secret';
import { tenantIdOf } from './bearer-auth';
import { forwardSigned, sendUpstream } from './forward';
import { pathId } from './path-params';
import { TENANT_PREFIX } from './tenant-routes';

/** Where ordering-pricing takes the notifications the gateway authenticated. */
const ORDERING_NOTIFICATIONS_PATH = '/api/payments/v1/notifications';

const settingsView = (s: ProcessorSettings) => ({
  configured: s.configured,
  notificationUrl: s.notificationUrl,
  rotatedAt: s.rotatedAt?.toISOString() ?? null,
  previousValidUntil: s.previousValidUntil?.toISOString() ?? null,
});

/**
 * The `processor` audience's check before the body is read: both signature headers are present and
 * the timestamp is fresh. The signature itself covers the body, so it is checked by the route once
 * the body is read (at most the JSON limit), before anything else happens.
 */
export const processorHeadersPresent: RouteMiddleware = async (c, next) => {
  if (
    !c.get(PROCESSOR_SIGNATURE_HEADER) ||
    !timestampAcceptable(c.get(PROCESSOR_TIMESTAMP_HEADER) || undefined, Date.now())
  )
    throw unauthenticated();
  await next();
};

/**
 * A tenant's payment processor: the tenant manages the secret its processor signs with; the
 * processor's notifications are authenticated here and go on to ordering-pricing, which marks the
 * order paid (see services/ordering-pricing/README.md, "Payments").
 */
export function registerPaymentProcessorRoutes(routes: RouteTable, ctx: GatewayContext, routing: ForwardRouting): void {
  const p = `${TENANT_PREFIX}/payment-processor`;
  routes.get(p, 'tenant', async (c) => {
    c.body = settingsView(await getProcessorSettings(ctx, tenantIdOf(c)));
  });
  routes.post(`${p}/secret/rotate`, 'tenant', async (c) => {
    const { secret, settings } = await rotateProcessorSecret(ctx, tenantIdOf(c));
    c.set('Cache-Control', 'no-store');
    c.body = { secret, ...settingsView(settings) };
  });
  routes.delete(`${p}/secret`, 'tenant', async (c) => {
    await revokeProcessorSecrets(ctx, tenantIdOf(c));
    c.status = 204;
  });

  routes.post(processorNotificationPath(':tenantId'), 'processor', async (c: RouterContext<RequestState>) => {
    const tenantId = pathId(c.params.tenantId);
    const identity = await authenticateProcessor(ctx, tenantId, {
      timestamp: c.get(PROCESSOR_TIMESTAMP_HEADER) || undefined,
      signature: c.get(PROCESSOR_SIGNATURE_HEADER) || undefined,
      rawBody: rawRequestBody(c) ?? '',
    });
    if (!identity) throw unauthenticated();
    sendUpstream(c, await forwardSigned(routing, 'ordering', c, identity, ORDERING_NOTIFICATIONS_PATH));
  });
}
