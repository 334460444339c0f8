import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { HeldAssignment } from './held-assignment';

/**
 * Who is calling, as the gateway established it. Internal services never see API keys or tenant
 * tokens: they trust only this, signed by the gateway with Ed25519. Services hold the public key
 * only, so a compromised internal service cannot mint identities for the others.
 */
export type CallerIdentity = PartnerIdentity | TenantIdentity | ProcessorIdentity | AdminIdentity;

/**
 * What every owner service needs to know about the tenant and cannot change: its currency (prices
 * and their decimals) and its default language (catalog fallback). Fixed when the tenant is created.
 */
export interface TenantProfile {
  /** ISO 4217 code, e.g. EUR. */
  currencyCode: string;
  /** BCP 47 tag, e.g. en or de-AT. */
  defaultLanguage: string;
}

export interface PartnerIdentity {
  kind: 'partner';
  tenantId: string;
  tenant: TenantProfile;
  installationId: string;
  appId: string;
  /** Scopes granted at connect time. */
  scopes: string[];
  /** The partner's Idempotency-Key on POST and PATCH, so the owner can dedupe a lost response. */
  idempotencyKey?: string;
  /**
   * On a delivery provider's order read only: the order's live assignment, as delivery-assignment
   * (its owner) said the caller held it when the gateway asked, just before forwarding the read.
   * Absent: the caller held none. Ordering answers the delivery read from this, not from a copy.
   */
  heldAssignment?: HeldAssignment;
}

export interface TenantIdentity {
  kind: 'tenant';
  tenantId: string;
  tenant: TenantProfile;
}

/**
 * The tenant's payment processor, whose notification the gateway authenticated by its signature
 * with the tenant's processor secret: it may confirm payments of that tenant's orders, nothing else.
 */
export interface ProcessorIdentity {
  kind: 'processor';
  tenantId: string;
  tenant: TenantProfile;
}

/**
 * A platform administrator, whose bearer token the gateway checked: the administrator API parts
 * other services own (delivery-assignment's connections offered to every tenant).
 */
export interface AdminIdentity {
  kind: 'admin';
  /** Who, for the audit trail: the token's subject. */
  subject: string;
}

/** The header that carries the signed identity from the gateway to an internal service. */
export const IDENTITY_HEADER = 'x-marketplace-identity';

/** How long a signed identity stays valid: one proxied request, plus clock skew between hosts. */
const DEFAULT_TTL_SECONDS = 30;
const PREFIX = 'v1';

interface Claims {
  /** The identity itself. */
  id: CallerIdentity;
  /**
   * Method, path and service it was issued for: a token lifted from one request cannot serve
   * another route, nor the same path at another service.
   */
  m: string;
  p: string;
  s: string;
  iat: number;
  exp: number;
}

export interface RequestBinding {
  method: string;
  /** Path without the query string, exactly as sent upstream. */
  path: string;
  /** The service the request is for (its name, e.g. `catalog`). */
  service: string;
}

/** Keys are configured as base64 DER (PKCS#8 private, SPKI public): one line, fits an env var. */
export function privateKeyFrom(base64Der: string): KeyObject {
  const key = createPrivateKey({ key: Buffer.from(base64Der, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the identity private key must be an Ed25519 key');
  return key;
}

export function publicKeyFrom(base64Der: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64Der, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the identity public key must be an Ed25519 key');
  return key;
}

export function signIdentity(
  privateKey: KeyObject,
  identity: CallerIdentity,
  binding: RequestBinding,
  nowMs = Date.now(),
  ttlSeconds = DEFAULT_TTL_SECONDS,
): string {
  const iat = Math.floor(nowMs / 1000);
  const claims: Claims = {
    id: identity,
    m: binding.method.toUpperCase(),
    p: binding.path,
    s: binding.service,
    iat,
    exp: iat + ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign(null, Buffer.from(`${PREFIX}.${payload}`), privateKey).toString('base64url');
  return `${PREFIX}.${payload}.${signature}`;
}

/** The identity, or undefined when the token is missing, forged, expired or for another request. */
export function verifyIdentity(
  publicKey: KeyObject,
  token: string | undefined,
  binding: RequestBinding,
  nowMs = Date.now(),
): CallerIdentity | undefined {
  if (!token) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return undefined;
  const [, payload, signature] = parts as [string, string, string];
  let valid: boolean;
  try {
    valid = verify(null, Buffer.from(`${PREFIX}.${payload}`), publicKey, Buffer.from(signature, 'base64url'));
  } catch {
    return undefined;
  }
  if (!valid) return undefined;
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
  } catch {
    return undefined;
  }
  const now = Math.floor(nowMs / 1000);
  // A little skew tolerance for iat: the gateway's clock may run slightly ahead of ours.
  if (typeof claims.exp !== 'number' || now > claims.exp || claims.iat > now + 5) return undefined;
  if (claims.m !== binding.method.toUpperCase() || claims.p !== binding.path || claims.s !== binding.service)
    return undefined;
  return claims.id;
}
