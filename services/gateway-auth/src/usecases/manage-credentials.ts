import { InstallationsRepository } from '../adapters/store/installations-repository';
import { conflict } from '@marketplace/errors';
import type { GatewayContext } from './context';
import { issueApiKey, newWebhookSecret, revokeApiKeys } from './credentials';
import { installationChanged, nextRevision } from './installation-events';
import type { Credentials, Installation } from './entities';
import { findInstallation, ownerOf, withInstallationLock } from './installations';

const notConnected = () => conflict('marketplace.installation.not_connected', 'The installation is not connected.');

/**
 * A new API key. The previous one is revoked at once (`overlapSeconds` 0, the default), or keeps
 * working for `overlapSeconds` (never longer than it would have anyway), so that the partner can
 * switch without a gap; `previousKeyExpiresAt` says until when (null: it stopped at once). Scopes
 * stay those granted at connect.
 */
export function rotateApiKey(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
  overlapSeconds = 0,
): Promise<{ installation: Installation; credentials: Credentials; previousKeyExpiresAt: Date | null }> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status !== 'Connected') throw notConnected();
    const key = await issueApiKey(ctx, installation, installation.scopes, overlapSeconds);
    const updatedAt = ctx.now();
    await ctx.store.installations.setApiKeyId({ tenantId }, installationId, key.keyId, updatedAt);
    return {
      installation: { ...installation, apiKeyId: key.keyId, updatedAt },
      credentials: { apiKey: key.apiKey, webhookSigningSecret: null },
      previousKeyExpiresAt: key.previousKeysEnd,
    };
  });
}

/** A new webhook signing secret; the next delivery attempt is signed with it. */
export function rotateWebhookSecret(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<{ installation: Installation; credentials: Credentials }> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status !== 'Connected') throw notConnected();
    if (installation.subscribedEvents.length === 0)
      throw conflict(
        'marketplace.installation.no_events',
        'The app subscribes to no events, so it has no signing secret.',
      );
    const secret = newWebhookSecret(ctx, installationId);
    const updatedAt = ctx.now();
    const revision = nextRevision(installation);
    const changes = { webhookSecretSealed: secret.sealed, updatedAt, eventRevision: revision };
    const event = installationChanged(ctx, { ...installation, ...changes }, revision, secret.secret);
    await ctx.store.installations.updateWithEvent({ tenantId }, installationId, changes, event, updatedAt);
    await ctx.outbox.flush(InstallationsRepository.storage.collection, installationId);
    return {
      installation: { ...installation, webhookSecretSealed: secret.sealed, updatedAt },
      credentials: { apiKey: null, webhookSigningSecret: secret.secret },
    };
  });
}

/** Revokes everything: API keys, the signing secret and the OAuth tokens. */
export function disconnectInstallation(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<Installation> {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    if (installation.status === 'Disconnected') return installation;
    await revokeApiKeys(ctx, ownerOf(installation));
    await ctx.store.oauthStates.deleteForInstallation(ownerOf(installation)); // a pending authorization ends here too
    const revision = nextRevision(installation);
    const changes = {
      status: 'Disconnected' as const,
      apiKeyId: null,
      webhookSecretSealed: null,
      oauth: null,
      updatedAt: ctx.now(),
      eventRevision: revision,
    };
    const event = installationChanged(ctx, { ...installation, ...changes }, revision, null);
    await ctx.store.installations.updateWithEvent({ tenantId }, installationId, changes, event, changes.updatedAt);
    await ctx.outbox.flush(InstallationsRepository.storage.collection, installationId);
    return { ...installation, ...changes };
  });
}

/** Revokes everything and removes the installation from the tenant's view; the app may be installed again. */
export function uninstallApp(ctx: GatewayContext, tenantId: string, installationId: string) {
  return withInstallationLock(ctx, installationId, async () => {
    const installation = await findInstallation(ctx, tenantId, installationId);
    await revokeApiKeys(ctx, ownerOf(installation));
    await ctx.store.oauthStates.deleteForInstallation(ownerOf(installation));
    // Last, in one write: the installation leaves the tenant's view and frees its slot together.
    const revision = nextRevision(installation);
    const changes = {
      status: 'Uninstalled' as const,
      slot: installationId,
      apiKeyId: null,
      webhookSecretSealed: null,
      oauth: null,
      scopes: [],
      updatedAt: ctx.now(),
      eventRevision: revision,
    };
    const event = installationChanged(ctx, { ...installation, ...changes }, revision, null);
    await ctx.store.installations.updateWithEvent({ tenantId }, installationId, changes, event, changes.updatedAt);
    await ctx.outbox.flush(InstallationsRepository.storage.collection, installationId);
  });
}
