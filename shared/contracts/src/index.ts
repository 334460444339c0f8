export * from './json-schema';
export * from './vocabulary';
export {
  requestSchemas,
  partnerApiSchemas,
  httpSchemas,
  ORDER_LIMITS,
  PHONE_PATTERN,
  ASSIGNMENT_STATUS,
  DELIVERY_LIMITS,
  type AssignmentStatusName,
  tenantDeliverySchemas,
  OAuth2Input as OAuth2InputSchema,
} from './http';
export type * from './generated/http';
export * from './generated/events';
export { tenantCatalogApiDocument } from './openapi/tenant-catalog';
export { tenantOrderingApiDocument } from './openapi/tenant-ordering';
export { tenantWebhooksApiDocument } from './openapi/tenant-webhooks';
export { branchAddressLine, type BranchAddress } from './pickup';
export { tenantDeliveriesApiDocument } from './openapi/tenant-deliveries';
