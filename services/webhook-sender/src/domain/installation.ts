/**
 * The webhook sender's own copy of an installation, kept from the gateway's installation events
 * (topic `installations`). The gateway owns installations; this copy holds only what delivery needs.
 */
export interface ReceivingInstallation {
  installationId: string;
  tenantId: string;
  appId: string;
  /** Only a connected installation receives events. */
  connected: boolean;
  /** The callback URL of the installation's contract version; null when the app has none. */
  webhookUrl: string | null;
  /** Event types the contract version subscribes to (never `system.test`: it cannot be subscribed to). */
  events: string[];
  /** The current webhook signing secret (`whsec_…`), in memory only; null when the app has none. */
  signingSecret: string | null;
}

/** Read side of the installation copy, used by the delivery engine. */
export interface InstallationDirectory {
  /** One installation of a tenant, or undefined (another tenant's installation is undefined too). */
  find(tenantId: string, installationId: string): Promise<ReceivingInstallation | undefined>;
  /** Every connected installation of the tenant that subscribes to the event type and has a URL. */
  subscribers(tenantId: string, eventType: string): Promise<ReceivingInstallation[]>;
}
