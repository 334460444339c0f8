export * from './json-schema';
export * from './vocabulary';
export {
  requestSchemas,
  partnerApiSchemas,
  httpSchemas,
  ORDER_LIMITS,
  PHONE_PATTERN,
  PAYMENT_SUCCEEDED,
  ASSIGNMENT_STATUS,
  DELIVERY_LIMITS,
  type AssignmentStatusName,
  tenantDeliverySchemas,
  OAuth2Input as OAuth2InputSchema,
  API_KEY_ROTATION_OVERLAP,
  TENANT_TOKEN_LIFETIME,
  SANDBOX_SCENARIOS,
  type SandboxScenarioName,
  providerSchemas,
  providerAdminSchemas,
  providerOperationsSchemas,
  providerCourierSchemas,
  providerConnectionSchemas,
  CONNECTION_CAPABILITIES,
  CONNECTION_LIMITS,
  type ConnectionCapability,
  REPORTABLE_EVENT_TYPES,
  PLATFORM_RATE_LIMIT,
  SIMULATOR_LIMITS,
  COURIER_EVENT_TYPES,
  DRIVER_VEHICLES,
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
  PROVIDER_STATUS_MEANINGS,
  PROVIDER_UPDATE_FIELDS,
  TERMINAL_STATUSES,
  WEBHOOK_TEST_EVENT_TYPE,
  WEBHOOK_TEST_LIMITS,
  SPEC_EVENT_TYPES,
  isTerminalStatus,
  type ProviderErrorCode,
  type ProviderEventTypeName,
  type ProviderStatusName,
} from './http';
export type * from './generated/http';
export * from './generated/events';
export { tenantCatalogApiDocument } from './openapi/tenant-catalog';
export { tenantOrderingApiDocument } from './openapi/tenant-ordering';
export { tenantWebhooksApiDocument } from './openapi/tenant-webhooks';
export { branchAddressLine, type BranchAddress } from './pickup';
export { tenantDeliveriesApiDocument } from './openapi/tenant-deliveries';
export { tenantProviderConnectionsApiDocument } from './openapi/tenant-provider-connections';
export { providerApiDocument } from './openapi/provider-api';
export { providerAdminApiDocument } from './openapi/provider-admin';
export { providerCourierApiDocument } from './openapi/provider-courier';
export { providerCallbacksAdminApiDocument } from './openapi/provider-callbacks-admin';
