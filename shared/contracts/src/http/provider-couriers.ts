import {
  type JsonSchema,
  arrayOf,
  bool,
  dateTime,
  nullable,
  nullableDateTime,
  nullableRef,
  nullableStr,
  object,
  ref,
  str,
  text,
  uuid,
} from '../json-schema';
import { PROVIDER_LIMITS, PROVIDER_STATUSES } from './provider';

/**
 * provider-delivery's drivers: the registry an administrator keeps per platform account (admin
 * API), and the courier API a driver app calls with the driver's own credential. Request bodies
 * are validated with these schemas (400 `request.invalid` with `fieldErrors`); the OpenAPI
 * documents embed them.
 */

const L = PROVIDER_LIMITS;

export const DRIVER_VEHICLES = ['bicycle', 'scooter', 'car'] as const;

/** The events a courier reports (the platform's return request and cancellation are the platform's). */
export const COURIER_EVENT_TYPES = [
  'driver.arrived_at_pickup',
  'delivery.picked_up',
  'delivery.on_the_way',
  'delivery.delivered',
  'delivery.failed',
  'delivery.returning_to_origin',
  'delivery.returned_to_origin',
  'delivery.return_failed',
] as const;

const lat = (description?: string): JsonSchema => ({
  type: 'number',
  minimum: L.latitudeMinimum,
  maximum: L.latitudeMaximum,
  ...(description ? { description } : {}),
});
const lng = (description?: string): JsonSchema => ({
  type: 'number',
  minimum: L.longitudeMinimum,
  maximum: L.longitudeMaximum,
  ...(description ? { description } : {}),
});
const point = (description: string): JsonSchema => object({ lat: lat(), lng: lng() }, description);
const name = text(100, 'The name the platform and its customer see (the tracking page shows the first word).');
const phone: JsonSchema = {
  type: 'string',
  minLength: 3,
  maxLength: L.customerPhoneMaxLength,
  pattern: '^\\+?[0-9 ()-]+$',
  description: 'The phone the platform may show its customer (never on the tracking page, never logged).',
};
const vehicle: JsonSchema = { type: 'string', enum: [...DRIVER_VEHICLES] };
const shift: JsonSchema = nullable(
  object({ startsAtUtc: dateTime(), endsAtUtc: dateTime() }, 'The shift; offers come only within it.'),
  'Null: always on shift.',
);

export const DriverInput: JsonSchema = object(
  {
    name,
    phone,
    vehicle,
    shift,
    online: bool('Whether the driver takes offers now (false when absent; the driver app switches it).'),
    position: nullable(point('Where the driver is.'), 'Null or absent: unknown until the app reports it.'),
    simulated: bool('Created by the courier simulator (false when absent).'),
  },
  { optional: ['shift', 'online', 'position', 'simulated'], description: 'A new driver of the account.' },
);

export const DriverPatch: JsonSchema = {
  ...object(
    { name, phone, vehicle, shift, online: bool() },
    { optional: ['name', 'phone', 'vehicle', 'shift', 'online'], description: 'The fields to change.' },
  ),
  minProperties: 1,
};

export const CourierAvailability: JsonSchema = object(
  { online: bool('True: offers come; false: none (a delivery carried goes on).') },
  { description: 'Going online or offline.' },
);

export const CourierLocation: JsonSchema = object(
  { lat: lat(), lng: lng() },
  { description: 'Where the driver is now.' },
);

export const CourierEventReport: JsonSchema = object(
  {
    eventType: { type: 'string', enum: [...COURIER_EVENT_TYPES], description: 'What happened.' },
    reason: text(200, 'Why it failed (required with `delivery.failed` and `delivery.return_failed`).'),
  },
  { optional: ['reason'], description: 'A move of the delivery the driver carries.' },
);

const pickup = object({ address: str(), lat: lat(), lng: lng() }, 'Where the food is collected (the restaurant).');

/** Answers of the drivers' admin routes and of the courier API (they may refer to each other). */
export const providerCourierSchemas: Record<string, JsonSchema> = {
  Driver: object(
    {
      id: uuid(),
      accountId: uuid(),
      name: str(),
      phone: str(),
      vehicle,
      shift,
      online: bool(),
      position: nullable(
        object({ lat: lat(), lng: lng(), at: dateTime('When it was reported.') }),
        'The last position reported; null before the first.',
      ),
      activeDeliveryId: nullable(uuid(), 'The delivery the driver carries.'),
      offer: nullable(
        object({ providerDeliveryId: uuid(), expiresAt: dateTime() }),
        'The offer the driver holds (until `expiresAt`).',
      ),
      simulated: bool(),
      createdAt: dateTime(),
      updatedAt: dateTime(),
    },
    'A driver. Never carries the courier token.',
  ),
  DriverRegistered: object(
    {
      driver: ref('Driver'),
      courierToken: str(
        'The driver app’s credential (`pdd_…`), shown this once: the app sends `Authorization: Bearer <courierToken>`.',
      ),
    },
    'The new driver and their courier token.',
  ),
  CourierToken: object(
    { courierToken: str('The new credential, shown this once; the previous one no longer works.') },
    'A driver’s new courier token.',
  ),
  CourierOffer: object(
    {
      providerDeliveryId: uuid(),
      expiresAt: dateTime('Accept before this, or the delivery goes to the next driver.'),
      pickup,
      dropoff: object({ lat: lat(), lng: lng() }, 'Where it goes (the address comes with the delivery).'),
      readyAt: dateTime('When the food is ready.'),
      notes: nullableStr('The platform’s delivery notes (what the driver would take on).'),
    },
    'A delivery offered to the driver.',
  ),
  CourierDelivery: object(
    {
      providerDeliveryId: uuid(),
      status: { type: 'string', enum: [...PROVIDER_STATUSES] },
      pickup,
      dropoff: object({ address: str(), lat: lat(), lng: lng() }, 'The customer’s address.'),
      notes: nullableStr('The platform’s delivery notes.'),
      readyAt: dateTime('When the food is ready (creation plus preparation time, on the delivery’s clock).'),
      timeScale: {
        type: 'integer',
        minimum: 1,
        description: 'How many times faster than real time the delivery’s clock runs (1 but for simulated accounts).',
      },
      estimatedDeliveryAtUtc: nullableDateTime(),
    },
    'A delivery the driver carries or carried.',
  ),
  CourierState: object(
    {
      driver: ref('Driver'),
      offer: nullableRef('CourierOffer', 'The running offer, if any.'),
      activeDelivery: nullableRef('CourierDelivery', 'The delivery the driver carries, if any.'),
    },
    'What the driver app shows.',
  ),
  CourierEventsSent: object(
    {
      status: { type: 'string', enum: [...PROVIDER_STATUSES] },
      eventsSent: arrayOf(str(), 'The events sent to the platform (a coalesced location sends none).'),
    },
    'The delivery’s status after the report, and what the platform was sent.',
  ),
  CourierLocationRecorded: object(
    { eventsSent: arrayOf(str(), 'The events sent to the platform for the delivery carried (none when coalesced).') },
    'The position was recorded.',
  ),
  CourierOfferDeclined: object({ declined: { const: true } }, 'The offer went back to the dispatcher.'),
};
