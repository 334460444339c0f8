import {
  requestSchemas,
  type AssignDeliveryRequest,
  type CapabilityGrantInput,
  type ConformanceCertificate,
  type DispatchRulesInput,
  type ProviderConnectionCredentials,
  type ProviderConnectionInput,
  type DeliveryDriverUpdateRequest,
  type DeliveryEtaUpdateRequest,
  type DeliveryStatusUpdateRequest,
  type DeliveryTrackingUpdateRequest,
} from '@marketplace/contracts';
import { bodyValidator } from '@marketplace/http';

/**
 * Request shapes: the contracts' schemas, which the Partner API document (assembled by the gateway)
 * and the tenant document show. Each failure is 400 `request.invalid` with `errors` by field; the
 * ETA's time limits need the clock and are checked by the use case (same answer).
 */
export const validateStatusUpdate = bodyValidator<DeliveryStatusUpdateRequest>(
  requestSchemas.DeliveryStatusUpdateRequest,
);
export const validateDriverUpdate = bodyValidator<DeliveryDriverUpdateRequest>(
  requestSchemas.DeliveryDriverUpdateRequest,
);
export const validateEtaUpdate = bodyValidator<DeliveryEtaUpdateRequest>(requestSchemas.DeliveryEtaUpdateRequest);
export const validateTrackingUpdate = bodyValidator<DeliveryTrackingUpdateRequest>(
  requestSchemas.DeliveryTrackingUpdateRequest,
);
export const validateAssign = bodyValidator<AssignDeliveryRequest>(requestSchemas.AssignDeliveryRequest);
export const validateConnection = bodyValidator<ProviderConnectionInput>(requestSchemas.ProviderConnectionInput);
export const validateCertificate = bodyValidator<ConformanceCertificate>(requestSchemas.ConformanceCertificate);
export const validateCapabilityGrant = bodyValidator<CapabilityGrantInput>(requestSchemas.CapabilityGrantInput);
export const validateCredentials = bodyValidator<ProviderConnectionCredentials>(
  requestSchemas.ProviderConnectionCredentials,
);
export const validateDispatchRules = bodyValidator<DispatchRulesInput>(requestSchemas.DispatchRulesInput);
