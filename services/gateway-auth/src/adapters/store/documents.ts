import type {
  App,
  AuditEvent,
  ContractVersion,
  Installation,
  OAuth2Settings,
  Tenant,
  TenantTokenRecord,
} from '../../domain/entities';

/**
 * Documents of the gateway's database. Secrets appear only sealed (see SecretBox) or hashed. The
 * documents the use cases work with are their entities (domain/entities.ts), stored as they are.
 */
export type TenantDoc = Tenant;
export type AppDoc = App;
export type OAuth2SettingsDoc = OAuth2Settings;
export type ContractVersionDoc = ContractVersion;
export type InstallationDoc = Installation;

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
  /**
   * When an active key stops working: set on the previous keys by a rotation with an overlap.
   * Absent (keys stored before rotations had overlaps) or null: until revoked.
   */
  expiresAt?: Date | null;
}

/** A tenant bearer token minted by an administrator: its id (the token's `jti`), never its text. */
export interface TenantTokenDoc extends TenantTokenRecord {
  /**
   * Set on revocation only (the `revoked_until` index is sparse): the token's own expiry, until
   * when its revocation matters. The gateways' revocation lists read the unexpired ones.
   */
  revokedUntil?: Date;
}

/** One audited mutation of the administrator or tenant API. Never a body, a header or a secret. */
export type AuditEventDoc = AuditEvent;

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
