import type { AuthType } from '../../domain/scopes';

/** Documents of the gateway's database. Secrets appear only sealed (see SecretBox) or hashed. */
export interface TenantDoc {
  _id: string;
  slug: string;
  name: string;
  currencyCode: string;
  defaultLanguage: string;
  createdAt: Date;
}

export interface AppDoc {
  _id: string;
  slug: string;
  name: string;
  description: string | null;
  createdAt: Date;
}

export interface OAuth2SettingsDoc {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecretSealed: string;
  scopes: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

/** `_id` is `<appId>:<version>`: the unique id makes version numbering race-free. */
export interface ContractVersionDoc {
  _id: string;
  appId: string;
  version: number;
  status: 'Draft' | 'Published';
  authType: AuthType;
  scopes: string[];
  subscribedEvents: string[];
  webhookUrl: string | null;
  oauth2: OAuth2SettingsDoc | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
}

export type InstallationStatus = 'Installed' | 'Connecting' | 'Connected' | 'Disconnected' | 'Uninstalled';

export interface InstallationDoc {
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
  oauth: { accessTokenSealed: string; refreshTokenSealed: string | null; tokenType: string; expiresAt: Date | null; scope: string | null } | null;
  installedAt: Date;
  connectedAt: Date | null;
  updatedAt: Date;
  /** Of the last installation event: increases with every one (changes are made under a lock). */
  eventRevision?: number;
}

export interface ApiKeyDoc {
  _id: string; // the key id
  installationId: string;
  tenantId: string;
  appId: string;
  secretHash: string;
  scopes: string[];
  status: 'active' | 'revoked';
  createdAt: Date;
  revokedAt: Date | null;
}

export interface OAuthStateDoc {
  _id: string; // SHA-256 of the state value: the value itself is never stored
  installationId: string;
  tenantId: string;
  codeVerifierSealed: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface IdempotencyRecordDoc {
  _id: string; // `<installationId>:<SHA-256 of the key>`
  installationId: string;
  /** Absent on records written before records carried their tenant (they expire within a day). */
  tenantId?: string;
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  createdAt: Date;
  expiresAt: Date;
}
