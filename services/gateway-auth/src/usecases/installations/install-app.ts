import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import type { Installation } from '../../domain/entities';
import { LIVE_SLOT } from '../../domain/installations';
import type { GatewayContext } from '../context';

/**
 * Install and consent in one step: the tenant names the exact published version it accepts. The
 * installation keeps a copy of that contract. One live installation per app and tenant: a unique
 * index (see Installation.slot) decides, since an insert is exact where updates are not isolated.
 */
export async function installApp(
  ctx: GatewayContext,
  tenantId: string,
  input: { appId: string; contractVersion: number },
): Promise<Installation> {
  const version = await ctx.store.contractVersions.findPublishedVersion(input.appId, input.contractVersion);
  const app = version && (await ctx.store.apps.findById(input.appId));
  if (!version || !app)
    throw notFound('resource.not_found', 'The app or contract version does not exist or is not published.');
  const now = ctx.now();
  const doc: Omit<Installation, 'tenantId'> = {
    _id: randomUUID(),
    appId: app._id,
    appName: app.name,
    contractVersion: version.version,
    authType: version.authType,
    contractScopes: version.scopes,
    subscribedEvents: version.subscribedEvents,
    webhookUrl: version.webhookUrl,
    status: 'Installed',
    slot: LIVE_SLOT,
    scopes: [],
    apiKeyId: null,
    webhookSecretSealed: null,
    oauth: null,
    installedAt: now,
    connectedAt: null,
    updatedAt: now,
  };
  try {
    return await ctx.store.installations.insert({ tenantId }, doc);
  } catch (error) {
    if (isDuplicateKeyError(error))
      throw conflict('marketplace.installation.exists', 'This app is already installed; uninstall it first.');
    throw error;
  }
}
