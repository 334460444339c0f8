import type Router from '@koa/router';
import {
  providerCourierApiDocument,
  requestSchemas,
  type CourierAvailability,
  type CourierEventReport,
  type CourierLocation,
} from '@marketplace/contracts';
import { bodyValidator, requestBody, type RequestState } from '@marketplace/http';
import type { ProviderContext } from '../usecases/context';
import {
  acceptOffer,
  courierDelivery,
  courierState,
  declineOffer,
  reportCourierEvent,
  reportLocation,
  setAvailability,
} from '../usecases/courier';
import { courierDriverOf } from './auth';
import { courierDeliveryView, courierStateView } from './courier-views';
import { deliveryIdOf } from './platform-routes';

const validateAvailability = bodyValidator<CourierAvailability>(requestSchemas.CourierAvailability);
const validateLocation = bodyValidator<CourierLocation>(requestSchemas.CourierLocation);
const validateEvent = bodyValidator<CourierEventReport>(requestSchemas.CourierEventReport);
const C = '/courier/v1';

/** The courier API (guardRoutes puts the driver of the courier token on the request first). */
export function registerCourierRoutes(router: Router<RequestState>, ctx: ProviderContext): void {
  router.get(`${C}/openapi.json`, (c) => {
    c.body = providerCourierApiDocument;
  });
  router.get(`${C}/me`, async (c) => {
    c.body = courierStateView(await courierState(ctx, courierDriverOf(c)));
  });
  router.post(`${C}/me/availability`, async (c) => {
    const { online } = validateAvailability(requestBody(c));
    c.body = courierStateView(await setAvailability(ctx, courierDriverOf(c), online));
  });
  router.post(`${C}/me/location`, async (c) => {
    const { lat, lng } = validateLocation(requestBody(c));
    c.body = await reportLocation(ctx, courierDriverOf(c), { lat, lng });
  });
  router.post(`${C}/offers/:providerDeliveryId/accept`, async (c) => {
    const delivery = await acceptOffer(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
    c.body = courierDeliveryView(delivery);
  });
  router.post(`${C}/offers/:providerDeliveryId/decline`, async (c) => {
    c.body = await declineOffer(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
  });
  router.get(`${C}/deliveries/:providerDeliveryId`, async (c) => {
    const delivery = await courierDelivery(ctx, courierDriverOf(c), deliveryIdOf(c.params.providerDeliveryId));
    c.body = courierDeliveryView(delivery);
  });
  router.post(`${C}/deliveries/:providerDeliveryId/events`, async (c) => {
    const { eventType, reason } = validateEvent(requestBody(c));
    const id = deliveryIdOf(c.params.providerDeliveryId);
    c.body = await reportCourierEvent(ctx, courierDriverOf(c), id, eventType, reason ?? null);
  });
}
