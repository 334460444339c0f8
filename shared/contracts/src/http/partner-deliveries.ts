import { type JsonSchema, dateTime, int32, nullableDateTime, nullableStr, object, ref, uuid } from '../json-schema';

/** Partner API delivery assignments (owner: delivery-assignment): the assignment and its updates. */
export const partnerDeliverySchemas: Record<string, JsonSchema> = {
  AssignmentStatus: int32(
    'Delivery assignment status, an integer. Known values: 2 Accepted, 4 InTransit, 5 Delivered. Assigned, the ' +
      'rejected state and the cancelled state also exist; their values are not part of this contract.',
  ),

  DeliveryAssignmentResponse: object(
    {
      assignmentId: uuid(),
      orderId: uuid(),
      appInstallationId: uuid(),
      status: ref('AssignmentStatus'),
      assignedAtUtc: dateTime(),
      respondedAtUtc: nullableDateTime(),
      driverName: nullableStr(),
      driverPhone: nullableStr(),
      etaUtc: nullableDateTime(),
      trackingUrl: nullableStr(),
    },
    'Returned by every delivery mutation: the assignment in its current state.',
  ),
  DeliveryStatusUpdateRequest: object({
    targetStatus: {
      type: 'integer',
      format: 'int32',
      enum: [4, 5],
      'x-enum-varnames': ['InTransit', 'Delivered'],
      description: '4 InTransit, 5 Delivered.',
    },
  }),
  DeliveryDriverUpdateRequest: object(
    { driverName: nullableStr(), driverPhone: nullableStr() },
    { description: 'Both fields are required; either may be null.' },
  ),
  DeliveryEtaUpdateRequest: object({ etaUtc: nullableDateTime() }),
  DeliveryTrackingUpdateRequest: object({
    trackingUrl: {
      type: ['string', 'null'],
      format: 'uri',
      pattern: '^https://',
      description: 'When set, an absolute https:// URL.',
    },
  }),
};
