import { randomUUID } from 'node:crypto';
import { busy, conflict, notFound } from '@marketplace/errors';
import { isDuplicateKeyError, type InstallationOwner } from '@marketplace/store';
import type { GatewayContext } from './context';
import type { Installation } from './entities';

/** The slot of an installed installation (see Installation.slot). */
const LIVE = 'live';

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
    slot: LIVE,
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

export async function listInstallations(ctx: GatewayContext, tenantId: string): Promise<Installation[]> {
  return ctx.store.installations.listLive({ tenantId });
}

/** The installation as the owner of its keys and states. */
export const ownerOf = (installation: Installation): InstallationOwner => ({
  tenantId: installation.tenantId,
  installationId: installation._id,
});

/** The tenant's own live installation; anything else (another tenant's, uninstalled, unknown) is 404. */
export async function findInstallation(
  ctx: GatewayContext,
  tenantId: string,
  installationId: string,
): Promise<Installation> {
  const doc = await ctx.store.installations.findLive({ tenantId }, installationId);
  if (!doc) throw notFound();
  return doc;
}

/**
 * Changes of one installation run one at a time under a Redis lock: connect, rotate and disconnect
 * each read the installation, then touch several documents (keys, states, the installation), and
 * the event revision must grow by one per change. The lock keeps each change whole on MongoDB 7
 * as on the local engine.
 */
export async function withInstallationLock<T>(
  ctx: GatewayContext,
  installationId: string,
  work: () => Promise<T>,
): Promise<T> {
  const result = await ctx.locks.withLock(`installation:${installationId}`, { ttlMs: 30_000, waitMs: 10_000 }, work);
  if (!result) throw busy('The installation is being changed by another request; try again shortly.');
  return result.value;
}
