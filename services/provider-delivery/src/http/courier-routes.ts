import {
  providerCourierApiDocument,
  requestSchemas,
  type CourierAvailability,
  type CourierEventReport,
  type CourierLocation,
} from '@marketplace/contracts';
import { bodyValidator, requestBody, type RouteTable } from '@marketplace/http';
import type { ProviderContext } from '../usecases/context';
import { acceptOffer } from '../usecases/courier/accept-offer';
import { declineOffer } from '../usecases/courier/decline-offer';
import { readCourierDelivery } from '../usecases/courier/read-courier-delivery';
import { readCourierState } from '../usecases/courier/read-courier-state';
import { reportCourierEvent } from '../usecases/courier/report-courier-event';
import { reportLocation } from '../usecases/courier/report-location';
import { setAvailability } from '../usecases/courier/set-availability';
import { courierDriverOf } from './auth';
import { courierDeliveryView, courierStateView } from './courier-views';
import { deliveryIdOf } from './platform-routes';

const validateAvailability = bodyValidator<CourierAvailability>(requestSchemas.CourierAvailability);
const validateLocation = bodyValidator<CourierLocation>(requestSchemas.CourierLocation);
const validateEvent = bodyValidator<CourierEventReport>(requestSchemas.CourierEventReport);
const C = '/courier/v1';

/** The courier API (the courier guard puts the driver of the courier token on the request first). */
export function registerCourierRoutes(routes: RouteTable, ctx: ProviderContext): void {
  routes.get(`${C}/openapi.json`, 'public', (c) => {
    c.body = providerCourierApiDocument;
  });
  routes.get(`${C}/me`, 'courier', async (c) => {
    c.body = courierStateView(await readCourierState(ctx, courierDriverOf(c)));
  });
  routes.post(`${C}/me/availability`, 'courier', async (c) => {
    const { online } = validateAvailability(requestBody(c));
    c.body = courierStateView(await setAvailability(ctx, courierDriverOf(c), online));
  });
  routes.post(`${C}/me/location`, 'courier', async (c) => {
    const { lat, lng } = validateLocation(requestBody(c));
    c.body = await reportLocation(ctx, courierDriverOf(c), { lat, lng });
  });
  routes.post(`${C}/offers/:providerDeliveryId/accept`, 'courier', async (c) => {
    const delivery = await acceptOffer(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
    c.body = courierDeliveryView(delivery);
  });
  routes.post(`${C}/offers/:providerDeliveryId/decline`, 'courier', async (c) => {
    c.body = await declineOffer(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
  });
  routes.get(`${C}/deliveries/:providerDeliveryId`, 'courier', async (c) => {
    const delivery = await readCourierDelivery(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
    c.body = courierDeliveryView(delivery);
  });
  routes.post(`${C}/deliveries/:providerDeliveryId/events`, 'courier', async (c) => {
    const { eventType, reason } = validateEvent(requestBody(c));
    const id = deliveryIdOf(c.params.providerDeliveryId);
    c.body = await reportCourierEvent(ctx, courierDriverOf(c), id, eventType, reason ?? null);
  });
}
