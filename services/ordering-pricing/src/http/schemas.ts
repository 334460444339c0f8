import {
  requestSchemas,
  type CreateOrderRequest,
  type DeliveryZoneInput,
  type ManualPaymentRecord,
  type ProcessorNotification,
  type PromotionInput,
  type ServiceFeeInput,
} from '@marketplace/contracts';
import { bodyValidator } from '@marketplace/http';

/**
 * Request shapes: the contracts' schemas, which the OpenAPI documents show (the Partner API's,
 * assembled by the gateway, and the tenant API's). The rules that need stored data (catalog, zones,
 * promotions) are checked by the use cases; both answer 400 `request.invalid` with `errors` keyed
 * by field path.
 */

/** Fields the service computes: named so that a partner sending them learns why they are refused. */
const SERVER_OWNED = [
  'status',
  'orderNumber',
  'paymentStatus',
  'subtotal',
  'discountTotal',
  'taxTotal',
  'deliveryFee',
  'serviceFee',
  'grandTotal',
  'currencyCode',
  'orderId',
];

const validateShape = bodyValidator<CreateOrderRequest>(requestSchemas.CreateOrderRequest);

/** The create-order body, with a clear word for server-owned fields a partner tried to set. */
export function validateOrderRequest(body: unknown): CreateOrderRequest {
  try {
    return validateShape(body);
  } catch (error) {
    const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
    for (const field of SERVER_OWNED)
      if (fieldErrors?.[field]) fieldErrors[field] = ['is computed by the service and cannot be submitted'];
    throw error;
  }
}

export const validateZone = bodyValidator<DeliveryZoneInput>(requestSchemas.DeliveryZoneInput);
export const validatePromotion = bodyValidator<PromotionInput>(requestSchemas.PromotionInput);
export const validateServiceFeeInput = bodyValidator<ServiceFeeInput>(requestSchemas.ServiceFeeInput);
export const validateManualPaymentRecord = bodyValidator<ManualPaymentRecord>(requestSchemas.ManualPaymentRecord);
export const validateProcessorNotification = bodyValidator<ProcessorNotification>(requestSchemas.ProcessorNotification);
