import {
  type JsonSchema,
  arrayOf,
  dateTime,
  double,
  nullable,
  nullableDateTime,
  nullableStr,
  object,
  ref,
  str,
  uuid,
} from '../json-schema';
import { PHONE_PATTERN } from './orders';

/**
 * Delivery assignment statuses as REST carries them. The spec fixes Accepted 2, InTransit 4 and
 * Delivered 5 and leaves the others to us: an ended assignment takes the number of the order
 * status of the same name where there is one (Rejected 7, Cancelled 8), and the two endings the
 * order has no word for follow (Superseded 9, Terminated 10). 3 and 6 stay free, so that a state
 * between acceptance and transit (at the pickup, say) can come later without moving a value.
 */
export const ASSIGNMENT_STATUS = {
  Assigned: 1,
  Accepted: 2,
  InTransit: 4,
  Delivered: 5,
  Rejected: 7,
  Cancelled: 8,
  Superseded: 9,
  Terminated: 10,
} as const;
export type AssignmentStatusName = keyof typeof ASSIGNMENT_STATUS;

const STATUS_MEANINGS: Record<AssignmentStatusName, string> = {
  Assigned: 'the tenant assigned the delivery; the installation has not answered yet',
  Accepted: 'the installation accepted (POST accept)',
  InTransit: 'on its way (PATCH status 4, from Accepted)',
  Delivered: 'delivered (PATCH status 5, from InTransit); final',
  Rejected: 'the installation rejected it while Assigned (POST reject); final, no automatic reassignment',
  Cancelled: 'the installation cancelled it after accepting (POST cancel); final, no automatic reassignment',
  Superseded: 'the tenant reassigned the order to another installation while this one was Assigned; final',
  Terminated:
    'the order was cancelled (by the tenant or its source) or rejected by the tenant while this was live; final',
};

/** Limits of the update requests (the spec leaves them to the service). */
export const DELIVERY_LIMITS = {
  driverNameMaxLength: 100,
  driverPhoneMaxLength: 32,
  trackingUrlMaxLength: 2048,
  /** An ETA may lie this far in the past (clock skew, a late report) and no further. */
  etaPastToleranceSeconds: 300,
  /** And at most this far ahead. */
  etaMaxAheadDays: 7,
} as const;

const statusNames = Object.keys(ASSIGNMENT_STATUS) as AssignmentStatusName[];

/** Partner API delivery assignments (owner: delivery-assignment): the assignment and its updates. */
export const partnerDeliverySchemas: Record<string, JsonSchema> = {
  AssignmentStatus: {
    type: 'integer',
    format: 'int32',
    enum: statusNames.map((name) => ASSIGNMENT_STATUS[name]),
    'x-enum-varnames': statusNames,
    'x-enum-descriptions': statusNames.map((name) => STATUS_MEANINGS[name]),
    description:
      'Delivery assignment status, an integer. ' +
      statusNames.map((name) => `${ASSIGNMENT_STATUS[name]} ${name}: ${STATUS_MEANINGS[name]}`).join('; ') +
      '. The spec fixes 2, 4 and 5; the other values are this service’s and as stable.',
  },

  DeliveryAssignmentResponse: object(
    {
      assignmentId: uuid(),
      orderId: uuid(),
      appInstallationId: uuid(),
      status: ref('AssignmentStatus'),
      assignedAtUtc: dateTime(),
      respondedAtUtc: nullableDateTime('When the installation accepted or rejected; null before.'),
      driverName: nullableStr(),
      driverPhone: nullableStr(),
      etaUtc: nullableDateTime(),
      trackingUrl: nullableStr(),
    },
    'Returned by every delivery mutation: the assignment in its current state.',
  ),
};

/**
 * The Partner API's delivery update bodies: request schemas, so self-contained (ajv compiles each
 * alone). Driver, ETA and tracking may be set while Accepted or InTransit.
 */
export const DeliveryStatusUpdateRequest = object({
  targetStatus: {
    type: 'integer',
    format: 'int32',
    enum: [ASSIGNMENT_STATUS.InTransit, ASSIGNMENT_STATUS.Delivered],
    'x-enum-varnames': ['InTransit', 'Delivered'],
    description:
      '4 InTransit (from Accepted) or 5 Delivered (from InTransit). Any other value is 400; a move the current ' +
      'state does not allow is 409 `delivery.transition_not_allowed`.',
  },
});

export const DeliveryDriverUpdateRequest = object(
  {
    driverName: nullable(
      {
        type: 'string',
        minLength: 1,
        maxLength: DELIVERY_LIMITS.driverNameMaxLength,
        pattern: '\\S',
      },
      `1 to ${DELIVERY_LIMITS.driverNameMaxLength} characters, not only spaces; null clears it.`,
    ),
    driverPhone: nullable(
      { type: 'string', maxLength: DELIVERY_LIMITS.driverPhoneMaxLength, pattern: PHONE_PATTERN },
      '6 to 15 digits, optionally a leading + and spaces, dots, dashes or parentheses between digits (as a ' +
        'customer phone); null clears it.',
    ),
  },
  { description: 'Both fields are required; either may be null.' },
);

export const DeliveryEtaUpdateRequest = object({
  etaUtc: nullableDateTime(
    `Date-time with a time zone; at most ${DELIVERY_LIMITS.etaPastToleranceSeconds / 60} minutes in the past and at most ` +
      `${DELIVERY_LIMITS.etaMaxAheadDays} days ahead (else 400); null clears it.`,
  ),
});

export const DeliveryTrackingUpdateRequest = object({
  trackingUrl: {
    type: ['string', 'null'],
    format: 'uri',
    pattern: '^https://[^\\s/?#@]+',
    maxLength: DELIVERY_LIMITS.trackingUrlMaxLength,
    description: `When set, an absolute https:// URL with a host, at most ${DELIVERY_LIMITS.trackingUrlMaxLength} characters; null clears it.`,
  },
});

/** Tenant API of delivery-assignment: assign (and reassign) an order's delivery, and read it. */
export const AssignDeliveryRequest = object(
  {
    installationId: uuid(
      "One of the tenant's installations: connected, with the scope Delivery.Accept. Naming another installation while " +
        'the delivery is still Assigned reassigns it.',
    ),
  },
  'Assign the delivery of a Delivery-mode order to a delivery-provider installation.',
);

/** Branch pickup info as the delivery-assignment-owned read shows it (snapshotted at assignment). */
const pickup = object(
  {
    name: str(),
    address: str(),
    latitude: double(),
    longitude: double(),
    externalLocationId: nullableStr(),
  },
  'The branch as it was at assignment: what the assigned installation reads on the order, unchanged while the assignment lasts.',
);

export const tenantDeliverySchemas: Record<string, JsonSchema> = {
  TenantDeliveryAssignment: object(
    {
      assignmentId: uuid(),
      orderId: uuid(),
      appInstallationId: uuid(),
      status: ref('AssignmentStatus'),
      statusName: { type: 'string', enum: statusNames },
      assignedAtUtc: dateTime(),
      respondedAtUtc: nullableDateTime(),
      endedAtUtc: nullableDateTime(
        'When it became Rejected, Cancelled, Superseded or Terminated; null while it lasts.',
      ),
      driverName: nullableStr(),
      driverPhone: nullableStr(),
      etaUtc: nullableDateTime(),
      trackingUrl: nullableStr(),
      pickup,
    },
    'One assignment of an order, as the tenant sees it.',
  ),
  TenantDelivery: object(
    {
      orderId: uuid(),
      orderNumber: str(),
      live: nullable(
        ref('TenantDeliveryAssignment'),
        "The order's assignment that is not over: Assigned, Accepted, InTransit or Delivered; null when there is none.",
      ),
      history: arrayOf(ref('TenantDeliveryAssignment'), 'Earlier assignments that ended, oldest first.'),
    },
    "An order's delivery: the live assignment and the history of earlier ones.",
  ),
};
