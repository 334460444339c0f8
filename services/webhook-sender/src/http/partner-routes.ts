import type { RouterContext } from '@koa/router';
import { validationError } from '@marketplace/errors';
import { pathId, requestBody, type RequestState, type RouteTable } from '@marketplace/http';
import { identityOf } from '@marketplace/identity';
import type { InstallationOwner } from '@marketplace/store';
import type { WebhookContext } from '../usecases/context';
import { getDelivery } from '../usecases/get-delivery';
import { listOwnDeliveries } from '../usecases/list-own-deliveries';
import { redeliverWebhook } from '../usecases/redeliver-webhook';
import { setSandboxFailures } from '../usecases/set-sandbox-failures';
import { listQuery } from './list-query';
import { partnerDeliveryView } from './views';

const PREFIX = '/api/partner/v1/webhooks/deliveries';

/** The calling installation, as the gateway signed it: the owner of everything these routes see. */
function installationOf(c: RouterContext<RequestState>): InstallationOwner {
  const { tenantId, installationId } = identityOf(c, 'partner');
  return { tenantId, installationId };
}

/**
 * The Partner API extension of v1 (ours, not the spec's): an installation's own webhook deliveries
 * with their attempts, one with the body as sent, and a redelivery. The gateway checked the API key
 * (any valid key of the installation: no scope) and the Idempotency-Key, and replays a repeated
 * key itself. Another installation's delivery, or another tenant's, is the 404 of an unknown one.
 */
export function registerPartnerRoutes(routes: RouteTable, ctx: WebhookContext): void {
  routes.get(PREFIX, 'partner', async (c) => {
    const options = listQuery(c.query);
    c.body = (await listOwnDeliveries(ctx, installationOf(c), options)).map((d) => partnerDeliveryView(d, false));
  });
  routes.get(`${PREFIX}/:deliveryId`, 'partner', async (c) => {
    c.body = partnerDeliveryView(await getDelivery(ctx, installationOf(c), pathId(c.params.deliveryId)), true);
  });
  // The sandbox's webhook.fail: reached only through the gateway's sandbox scenario, for a sandbox tenant.
  routes.post('/api/partner/v1/sandbox/webhook-failures', 'partner', async (c) => {
    const times = (requestBody(c) as { times?: unknown } | undefined)?.times;
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 8)
      throw validationError('request.invalid', 'The request is invalid.', {
        times: ['must be an integer from 1 to 8'],
      });
    c.body = await setSandboxFailures(ctx, installationOf(c), times);
  });
  routes.post(`${PREFIX}/:deliveryId/redeliver`, 'partner', async (c) => {
    const owner = installationOf(c);
    c.status = 202;
    c.body = partnerDeliveryView(await redeliverWebhook(ctx, owner, pathId(c.params.deliveryId)), false);
  });
}
