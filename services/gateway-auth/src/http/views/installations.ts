import type { ConnectResult } from '../../usecases/installations/connect-installation';
import type { Credentials, Installation } from '../../domain/entities';

export const installationView = (i: Installation) => ({
  id: i._id,
  tenantId: i.tenantId,
  appId: i.appId,
  appName: i.appName,
  contractVersion: i.contractVersion,
  authType: i.authType,
  status: i.status,
  scopes: i.scopes,
  subscribedEvents: i.subscribedEvents,
  webhookUrl: i.webhookUrl,
  apiKeyId: i.apiKeyId,
  webhookSecretSet: i.webhookSecretSealed !== null,
  oauthConnected: i.oauth !== null,
  installedAt: i.installedAt.toISOString(),
  // Only a live connection has a connection time (the stored one stays, for a failed reconnect).
  connectedAt: i.status === 'Connected' ? (i.connectedAt?.toISOString() ?? null) : null,
  updatedAt: i.updatedAt.toISOString(),
});

/** A connect or reconnect: the credentials (ApiKey apps) or the authorization URL (OAuth2 apps). */
export const connectResultView = (r: ConnectResult) => ({
  installation: installationView(r.installation),
  credentials: r.credentials,
  authorizationUrl: r.authorizationUrl,
});

/** New credentials (OAuth callback, rotations), shown once. */
export const credentialsResultView = (r: { installation: Installation; credentials: Credentials }) => ({
  installation: installationView(r.installation),
  credentials: r.credentials,
});

/** An API-key rotation: the new key, shown once, and until when the previous one still works. */
export const apiKeyRotationView = (r: {
  installation: Installation;
  credentials: Credentials;
  previousKeyExpiresAt: Date | null;
}) => ({
  ...credentialsResultView(r),
  previousKeyExpiresAt: r.previousKeyExpiresAt?.toISOString() ?? null,
});
