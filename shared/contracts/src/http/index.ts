import type { JsonSchema } from '../json-schema';
import { partnerCatalogSchemas } from './partner-catalog';
import {
  AssignDeliveryRequest,
  DeliveryDriverUpdateRequest,
  DeliveryEtaUpdateRequest,
  DeliveryStatusUpdateRequest,
  DeliveryTrackingUpdateRequest,
  partnerDeliverySchemas,
  tenantDeliverySchemas,
} from './partner-deliveries';
import { partnerOrderSchemas } from './partner-orders';
import { Problem } from './problem';
import {
  ProviderCancelRequest,
  ProviderCreateDeliveryRequest,
  ProviderReturnRequest,
  ProviderUpdateDeliveryRequest,
  ProviderWebhookTestRequest,
  providerSchemas,
} from './provider';
import { webhookSchemas } from './webhooks';
import { partnerWebhookDeliverySchemas } from './partner-webhook-deliveries';
import { DeliveryProgressReport, providerOperationsSchemas } from './provider-operations';
import {
  CourierAvailability,
  CourierEventReport,
  CourierLocation,
  DriverInput,
  DriverPatch,
  providerCourierSchemas,
} from './provider-couriers';
import {
  ApiKeyRotateRequest,
  PlatformAccountInput,
  PlatformAccountPatch,
  providerAdminSchemas,
} from './provider-admin';
import {
  AvailabilityPatch,
  BranchInput,
  CategoryInput,
  ModifierGroupInput,
  ProductInput,
  TaxCategoryInput,
} from './catalog-tenant';
import {
  AppInput,
  ContractVersionInput,
  InstallationApiKeyRotateRequest,
  InstallationInput,
  SandboxScenarioRequest,
  TenantInput,
  TenantTokenRequest,
} from './gateway';
import {
  DeliveryZoneInput,
  ManualPaymentRecord,
  ProcessorNotification,
  PromotionInput,
  ServiceFeeInput,
} from './ordering-tenant';
import { CreateOrderRequest } from './orders';
import {
  CapabilityGrantInput,
  ConformanceCertificate,
  DispatchRulesInput,
  PlatformCallbackEvent,
  ProviderConnectionCredentials,
  ProviderConnectionInput,
  providerConnectionSchemas,
} from './provider-connections';

export { ORDER_LIMITS, PHONE_PATTERN } from './orders';
export { PAYMENT_SUCCEEDED } from './ordering-tenant';
export { ASSIGNMENT_STATUS, DELIVERY_LIMITS, type AssignmentStatusName } from './partner-deliveries';
export {
  API_KEY_ROTATION_OVERLAP,
  OAuth2Input,
  SANDBOX_SCENARIOS,
  TENANT_TOKEN_LIFETIME,
  type SandboxScenarioName,
} from './gateway';
export { PLATFORM_RATE_LIMIT, SIMULATOR_LIMITS } from './provider-admin';
export { COURIER_EVENT_TYPES, DRIVER_VEHICLES } from './provider-couriers';
export {
  CALLBACK_URL_PATTERN,
  PROVIDER_CONTRACT,
  PROVIDER_ERROR_CODES,
  PROVIDER_EVENTS,
  PROVIDER_EVENT_TYPES,
  PROVIDER_LIMITS,
  PROVIDER_REJECTION_REASONS,
  PROVIDER_STATUSES,
  PROVIDER_TRANSITIONS,
  PROVIDER_WEBHOOK_RETRY,
  PROVIDER_UPDATE_FIELDS,
  PROVIDER_STATUS_MEANINGS,
  TERMINAL_STATUSES,
  WEBHOOK_TEST_EVENT_TYPE,
  WEBHOOK_TEST_LIMITS,
  SPEC_EVENT_TYPES,
  isTerminalStatus,
  type ProviderErrorCode,
  type ProviderEventTypeName,
  type ProviderStatusName,
} from './provider';

/**
 * Every request body a service validates, by name. Each is self-contained (no `$ref`), so ajv
 * compiles it alone; the OpenAPI documents list it under the same name in `components.schemas`.
 */
export const requestSchemas = {
  // gateway-auth: administrator and tenant APIs
  TenantInput,
  TenantTokenRequest,
  AppInput,
  ContractVersionInput,
  InstallationInput,
  InstallationApiKeyRotateRequest,
  // gateway-auth: the sandbox's scripted scenarios (Partner API extension)
  SandboxScenarioRequest,
  // catalog: tenant API
  TaxCategoryInput,
  BranchInput,
  CategoryInput,
  ProductInput,
  ModifierGroupInput,
  AvailabilityPatch,
  // ordering-pricing: Partner and tenant APIs
  CreateOrderRequest,
  DeliveryZoneInput,
  PromotionInput,
  ServiceFeeInput,
  ManualPaymentRecord,
  // ordering-pricing: a tenant's payment processor, through the gateway
  ProcessorNotification,
  // delivery-assignment: Partner and tenant APIs
  DeliveryStatusUpdateRequest,
  DeliveryDriverUpdateRequest,
  DeliveryEtaUpdateRequest,
  DeliveryTrackingUpdateRequest,
  AssignDeliveryRequest,
  // delivery-assignment: the marketplace as a platform of the provider contract
  ProviderConnectionInput,
  ProviderConnectionCredentials,
  CapabilityGrantInput,
  ConformanceCertificate,
  DispatchRulesInput,
  PlatformCallbackEvent,
  // provider-delivery: the Standard Delivery Provider Contract (platforms call us)
  ProviderCreateDeliveryRequest,
  ProviderUpdateDeliveryRequest,
  ProviderCancelRequest,
  ProviderReturnRequest,
  ProviderWebhookTestRequest,
  // provider-delivery: its administrator API (platform accounts, keys, webhook secrets)
  PlatformAccountInput,
  PlatformAccountPatch,
  ApiKeyRotateRequest,
  DeliveryProgressReport,
  // provider-delivery: its drivers (administrator API) and the courier API
  DriverInput,
  DriverPatch,
  CourierAvailability,
  CourierLocation,
  CourierEventReport,
} satisfies Record<string, JsonSchema>;

/**
 * The Partner API's schemas by owner, as its document lists them; responses may refer to each
 * other with `#/components/schemas/<Name>`.
 */
export const partnerApiSchemas: Record<string, JsonSchema> = {
  ...partnerCatalogSchemas,
  CreateOrderRequest,
  ...partnerOrderSchemas,
  ...partnerDeliverySchemas,
  DeliveryStatusUpdateRequest,
  DeliveryDriverUpdateRequest,
  DeliveryEtaUpdateRequest,
  DeliveryTrackingUpdateRequest,
  Problem,
  ...webhookSchemas,
  ...partnerWebhookDeliverySchemas,
};

/** Every named HTTP schema: what `npm run contracts:generate` makes types of. */
export const httpSchemas: Record<string, JsonSchema> = {
  ...requestSchemas,
  ...partnerApiSchemas,
  ...tenantDeliverySchemas,
  ...providerSchemas,
  ...providerAdminSchemas,
  ...providerOperationsSchemas,
  ...providerCourierSchemas,
  ...providerConnectionSchemas,
};

export {
  tenantDeliverySchemas,
  providerSchemas,
  providerAdminSchemas,
  providerOperationsSchemas,
  providerCourierSchemas,
  providerConnectionSchemas,
};
export { CONNECTION_CAPABILITIES, CONNECTION_LIMITS, type ConnectionCapability } from './provider-connections';
export { REPORTABLE_EVENT_TYPES } from './provider-operations';
export { WEBHOOK_ATTEMPT_ERRORS, WEBHOOK_DELIVERY_STATUSES } from './partner-webhook-deliveries';
