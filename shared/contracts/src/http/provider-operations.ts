import { type JsonSchema, dateTime, nullable, nullableDateTime, nullableStr, object, str, uuid } from '../json-schema';
import { PROVIDER_EVENT_TYPES, PROVIDER_LIMITS, PROVIDER_STATUSES } from './provider';

/**
 * provider-delivery's operations on deliveries, in its administrator API: reading a delivery as
 * the operator sees it (no customer data) and recording what happened to it (the dispatcher's
 * report: a driver took it, picked it up, delivered it; its position, estimate, tracking page).
 * Each report goes through the one table of moves and sends the contract's event.
 */

const L = PROVIDER_LIMITS;

/** Every event type a report may name: the contract's, but `delivery.accepted` (a create accepts). */
export const REPORTABLE_EVENT_TYPES = PROVIDER_EVENT_TYPES.filter((type) => type !== 'delivery.accepted');

const driverText = (max: number, description: string): JsonSchema =>
  nullable({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' }, `${description} Null clears it.`);

export const DeliveryProgressReport: JsonSchema = object(
  {
    eventType: {
      type: 'string',
      enum: [...REPORTABLE_EVENT_TYPES],
      description:
        'What happened. A status event moves the delivery (409 `delivery.transition_not_allowed` when the table of ' +
        'moves refuses it); `driver.location_updated`, `eta.updated` and `tracking.updated` report news in a ' +
        'nonterminal status. Location updates closer than 5 seconds, or 10 metres from the last one sent, change the ' +
        'tracking read but send no event (coalesced).',
    },
    driverName: driverText(100, 'The driver’s name (required with `driver.assigned`).'),
    driverPhone: driverText(L.customerPhoneMaxLength, 'The driver’s phone.'),
    driverLat: nullable(
      { type: 'number', minimum: L.latitudeMinimum, maximum: L.latitudeMaximum },
      'With driverLng (required with `driver.location_updated`).',
    ),
    driverLng: nullable(
      { type: 'number', minimum: L.longitudeMinimum, maximum: L.longitudeMaximum },
      'With driverLat.',
    ),
    trackingUrl: nullable(
      { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://' },
      'A page the customer can follow. Null clears it.',
    ),
    estimatedDeliveryAtUtc: nullableDateTime('The estimate (required with `eta.updated`). Null clears it.'),
  },
  {
    optional: ['driverName', 'driverPhone', 'driverLat', 'driverLng', 'trackingUrl', 'estimatedDeliveryAtUtc'],
    description: 'A field left out keeps its value.',
  },
);

export const OperatorDelivery: JsonSchema = object(
  {
    providerDeliveryId: uuid(),
    platformReference: str(),
    status: { type: 'string', enum: [...PROVIDER_STATUSES] },
    statusEventTimeUtc: dateTime('When the status was observed.'),
    callback: {
      type: 'string',
      enum: ['request', 'account', 'none'],
      description:
        'Where its events go: the create’s `webhook.url`, the account’s global URL, or nowhere (the URL is a secret: ' +
        'never shown).',
    },
    driverName: nullableStr(),
    driverPhone: nullableStr(),
    driverLat: nullable({ type: 'number' }),
    driverLng: nullable({ type: 'number' }),
    trackingUrl: nullableStr(),
    estimatedDeliveryAtUtc: nullableDateTime(),
    trackingEventTimeUtc: dateTime('When the tracking data was observed.'),
    returnReasonCode: nullableStr('The platform’s reason code of a return, once asked.'),
    driverId: nullable(uuid(), 'The driver who took it (the registry’s id); null before.'),
    failureReason: nullableStr(
      'Why it failed (no driver took it, the courier’s reason): the contract’s delivery.failed carries none.',
    ),
    timeScale: {
      type: 'integer',
      minimum: 1,
      description: 'How many times faster than real time its clock runs (1 but for a simulated account’s delivery).',
    },
    eventSent: nullable(
      { type: 'string', enum: [...PROVIDER_EVENT_TYPES] },
      'After a report: the event sent to the platform, or null when a location update was coalesced.',
    ),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  },
  {
    optional: ['eventSent'],
    description: 'A delivery as its operator sees it: status, driver and tracking; no customer data.',
  },
);

export const providerOperationsSchemas: Record<string, JsonSchema> = { OperatorDelivery };
