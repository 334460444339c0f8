import type { AuthType } from '../domain/scopes';

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
  createdAt: Date;
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
