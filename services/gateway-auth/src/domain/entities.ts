import type { AuthType } from './scopes';

/**
 * The gateway's entities as the use cases read and write them (and as the views show them): the
 * stored documents of adapters/store/documents.ts are these shapes. Secrets appear only sealed
 * (see SecretBox) or hashed.
 */
export interface Tenant {
  _id: string;
  slug: string;
  name: string;
  currencyCode: string;
  defaultLanguage: string;
  /** A sandbox tenant: its installations may drive scripted scenarios (domain/sandbox.ts). Absent: false. */
  sandbox?: boolean;
  createdAt: Date;
  /** The secrets its payment processor signs notifications with (absent until the first rotation). */
  paymentProcessor?: ProcessorSecrets | null;
}

/**
 * A tenant's payment-processor secrets, sealed (SecretBox): the current one, and after a rotation
 * the previous one until `previousValidUntil`, so the processor can be switched over without a gap.
 */
export interface ProcessorSecrets {
  currentSealed: string;
  rotatedAt: Date;
  previousSealed: string | null;
  previousValidUntil: Date | null;
}

export interface App {
  _id: string;
  slug: string;
  name: string;
  description: string | null;
  createdAt: Date;
}

export interface OAuth2Settings {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecretSealed: string;
  scopes: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

/** `_id` is `<appId>:<version>`: the unique id makes version numbering race-free. */
export interface ContractVersion {
  _id: string;
  appId: string;
  version: number;
  status: 'Draft' | 'Published';
  authType: AuthType;
  scopes: string[];
  subscribedEvents: string[];
  webhookUrl: string | null;
  oauth2: OAuth2Settings | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
}

export type InstallationStatus = 'Installed' | 'Connecting' | 'Connected' | 'Disconnected' | 'Uninstalled';

export interface Installation {
  _id: string;
  tenantId: string;
  appId: string;
  appName: string;
  contractVersion: number;
  /** The consented contract, snapshotted at install: later versions do not change it. */
  authType: AuthType;
  contractScopes: string[];
  subscribedEvents: string[];
  webhookUrl: string | null;
  status: InstallationStatus;
  /** `'live'` until uninstalled, then the installation's own id: with the unique index on
   * (tenantId, appId, slot) a tenant has at most one live installation of an app. */
  slot: string;
  /** Granted at connect time from the consented contract version. */
  scopes: string[];
  apiKeyId: string | null;
  webhookSecretSealed: string | null;
  oauth: {
    accessTokenSealed: string;
    refreshTokenSealed: string | null;
    tokenType: string;
    expiresAt: Date | null;
    scope: string | null;
  } | null;
  installedAt: Date;
  connectedAt: Date | null;
  updatedAt: Date;
  /** Of the last installation event: increases with every one (changes are made under a lock). */
  eventRevision?: number;
}

/** Credentials minted by a connect, reconnect or rotation: shown once, never stored in clear. */
export interface Credentials {
  apiKey: string | null;
  webhookSigningSecret: string | null;
}

/** A tenant token an administrator minted: its id (the token's `jti`) and dates, never the token. */
export interface TenantTokenRecord {
  _id: string;
  tenantId: string;
  issuedBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** One audited mutation of the administrator or tenant API. Never a body, a header or a secret. */
export interface AuditEvent {
  _id: string; // a UUID v7: sorts by time
  at: Date;
  /** The tenant the action concerns: the caller's (tenant API) or the path's (administrator API); null: none. */
  tenantId: string | null;
  actor: {
    role: 'admin' | 'tenant';
    sub: string;
    /** The tenant of a tenant token; null for an administrator. */
    tenantId: string | null;
    /** The id (`jti`) of the bearer token used; null for a token without one. */
    tokenId: string | null;
  };
  /** `METHOD /route/:pattern`. */
  action: string;
  method: string;
  route: string;
  /** The path's identifiers (route parameters; see auditTarget). */
  target: Record<string, string>;
  /** The answer's status code. */
  status: number;
  /** The client's address as the gateway sees it (`X-Forwarded-For` only when TRUST_PROXY is set). */
  ip: string;
  requestId: string;
}
