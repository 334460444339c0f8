import { requestSchemas, type DeliveryProgressReport, type OperatorDelivery } from '@marketplace/contracts';
import { bodyValidator, pathId, requestBody, type RouteTable } from '@marketplace/http';
import type { StoredDelivery } from '../domain/delivery';
import { readDelivery } from '../usecases/deliveries/read-delivery';
import type { ProviderContext } from '../usecases/context';
import { recordProgress } from '../usecases/deliveries/record-progress';
import { deliveryIdOf } from './platform-routes';

const validateReport = bodyValidator<DeliveryProgressReport>(requestSchemas.DeliveryProgressReport);
const P = '/admin/v1/platform-accounts/:accountId/deliveries/:providerDeliveryId';

export const operatorDeliveryView = (d: StoredDelivery, eventSent?: string | null): OperatorDelivery => ({
  providerDeliveryId: d.id,
  platformReference: d.order.platformReference,
  status: d.status,
  statusEventTimeUtc: d.statusEventTimeUtc.toISOString(),
  callback: d.callbackSource,
  driverName: d.tracking.driverName,
  driverPhone: d.tracking.driverPhone,
  driverLat: d.tracking.driverLat,
  driverLng: d.tracking.driverLng,
  trackingUrl: d.tracking.trackingUrl,
  estimatedDeliveryAtUtc: d.tracking.estimatedDeliveryAtUtc?.toISOString() ?? null,
  trackingEventTimeUtc: d.tracking.eventTimeUtc.toISOString(),
  returnReasonCode: d.returnReasonCode,
  driverId: d.driverId,
  failureReason: d.failureReason,
  timeScale: d.timeScale,
  ...(eventSent !== undefined ? { eventSent: eventSent as OperatorDelivery['eventSent'] } : {}),
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/**
 * Operations on an account's deliveries (administrator token): read one as the operator sees it,
 * and record what happened to it, which moves it through the table of moves and sends its event.
 * Beside the courier API (a driver's own reports), this is how an operator moves a delivery: a
 * driver without the app, a correction.
 */
export function registerOperationsRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.get(P, 'admin', async (c) => {
    const owner = { accountId: pathId(c.params.accountId) };
    c.body = operatorDeliveryView(await readDelivery(ctx, owner, deliveryIdOf(c.params.providerDeliveryId)));
  });
  routes.post(`${P}/events`, 'admin', async (c) => {
    const accountId = pathId(c.params.accountId);
    const id = deliveryIdOf(c.params.providerDeliveryId);
    const body = validateReport(requestBody(c));
    const { estimatedDeliveryAtUtc, ...rest } = body;
    const recorded = await recordProgress(ctx, accountId, id, {
      ...rest,
      eventType: body.eventType,
      ...(estimatedDeliveryAtUtc !== undefined
        ? { estimatedDeliveryAtUtc: estimatedDeliveryAtUtc === null ? null : new Date(estimatedDeliveryAtUtc) }
        : {}),
    });
    c.body = operatorDeliveryView(recorded.delivery, recorded.eventSent);
  });
}
