import {
  isTerminalStatus,
  PROVIDER_EVENTS,
  type ProviderEventDefinitions,
  type ProviderEventTypeName,
} from '@marketplace/contracts';
import type { Delivery } from './delivery';

/** The flat event the platform receives (ProviderWebhookEvent of the contract document). */
export type PlatformEventBody = ProviderEventDefinitions.PlatformWebhookEvent;

/**
 * The event of `type` about the delivery as it is now: its status, and the driver, location,
 * tracking URL and estimate we know (null when unknown, never invented). `at` is when we observed
 * it, the same on every retry. A status event carries the status it moved to; an update event
 * (location, ETA, tracking) the current one, which is never terminal (the use cases refuse them
 * after a terminal status).
 */
export function eventBody(delivery: Delivery, type: ProviderEventTypeName, at: Date): PlatformEventBody {
  const rule = PROVIDER_EVENTS[type];
  const status = rule.status === 'current' ? delivery.status : rule.status;
  const t = delivery.tracking;
  return {
    eventType: type,
    platformReference: delivery.order.platformReference,
    providerDeliveryId: delivery.id,
    status,
    eventTimeUtc: at.toISOString(),
    driverName: t.driverName,
    driverPhone: t.driverPhone,
    driverLat: t.driverLat,
    driverLng: t.driverLng,
    trackingUrl: t.trackingUrl,
    estimatedDeliveryAtUtc: t.estimatedDeliveryAtUtc?.toISOString() ?? null,
  };
}

/** Whether the event ends the delivery's events (its status is terminal). */
export const isTerminalEvent = (body: PlatformEventBody): boolean => isTerminalStatus(body.status);
