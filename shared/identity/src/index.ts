export {
  IDENTITY_HEADER,
  privateKeyFrom,
  publicKeyFrom,
  signIdentity,
  verifyIdentity,
  type CallerIdentity,
  type PartnerIdentity,
  type TenantIdentity,
  type ProcessorIdentity,
  type AdminIdentity,
  type TenantProfile,
  type RequestBinding,
} from './identity-token';
export { HELD_ASSIGNMENT_PATTERN, heldAssignmentPath, type HeldAssignment } from './held-assignment';
export { gatewayGuards, requireIdentity, identityOf, unauthenticated } from './middleware';
export { identityPublicKeySetting } from './settings';
export {
  webhookSecretTransportKeySetting,
  sealWebhookSecret,
  openWebhookSecret,
  sealForTransport,
  openFromTransport,
  TRANSPORT_CONTEXTS,
} from './webhook-secret-transport';
export { signBearerToken, verifyBearerToken, type BearerClaims } from './bearer-token';
export { SecretBox } from './secret-box';
export {
  customerDataTransportKeySetting,
  sealOrderDropoff,
  openOrderDropoff,
  type OrderDropoff,
} from './customer-data-transport';
