import type { ConnectionCapability } from '@marketplace/contracts';

/**
 * A connection to a delivery provider that implements the Standard Delivery Provider Contract:
 * the marketplace is the platform, the provider the service it calls. A tenant registers its own;
 * the administrator offers connections to every tenant (`tenantId` null), which a tenant adds to
 * get its own installation of it. Credentials are sealed (adapters/connection-secrets.ts).
 */
export interface ProviderConnection {
  /** The connection id. */
  _id: string;
  /** The tenant that registered it, or null: offered by the platform to every tenant. */
  tenantId: string | null;
  name: string;
  /** The provider environment's base URL, ending in `/v1`, without a trailing slash. */
  baseUrl: string;
  apiKeySealed: string;
  signingSecretSealed: string;
  /** The contract version and revision it certified against (the last certificate's, else the registration's). */
  contract: { version: string; revision: string };
  preparationTimeMinutes: number;
  capabilities: Partial<Record<ConnectionCapability, CapabilityGrant>>;
  createdAt: Date;
  updatedAt: Date;
  /** Grows with every write (compare-and-set). */
  version: number;
}

/** Who enabled a capability, and why: a conformance certificate, or an administrator's recorded reason. */
export interface CapabilityGrant {
  enabled: boolean;
  by: 'certificate' | 'administrator';
  reason: string;
  at: Date;
}

/**
 * A tenant's installation of a connection: what the tenant assigns deliveries to, so the Partner
 * API's assignment model (assign, reassign, supersede, terminate, the `delivery.*` events) holds
 * for a connection as for any delivery-provider installation. The platform operates it: no partner
 * holds a key for it, and nothing is sent to it by webhook.
 */
export interface ConnectionInstallation {
  /** The installation id. */
  _id: string;
  tenantId: string;
  connectionId: string;
  createdAt: Date;
}

export const capabilityEnabled = (connection: ProviderConnection, capability: ConnectionCapability): boolean =>
  connection.capabilities[capability]?.enabled === true;

/** Why the connection cannot take a delivery now, or undefined when it can. */
export function dispatchIneligibility(connection: ProviderConnection): { code: string; message: string } | undefined {
  if (!capabilityEnabled(connection, 'core'))
    return {
      code: 'delivery.connection_not_certified',
      message:
        'The provider connection is not enabled for deliveries: its core is neither certified by a conformance ' +
        'certificate nor enabled by an administrator.',
    };
  return undefined;
}

/** The base URL as stored and compared: no trailing slash. */
export const normalBaseUrl = (url: string): string => url.replace(/\/+$/, '');
