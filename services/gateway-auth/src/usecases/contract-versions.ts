import { AppError, busy, conflict, notFound, type FieldErrors } from '@marketplace/errors';
import { isDuplicateKeyError } from '@marketplace/store';
import { outboundUrlProblem } from '@marketplace/http';
import type { ContractVersionInput } from '@marketplace/contracts';
import { contractVersionId, type ContractFields } from '../adapters/store/contract-versions-repository';
import { clientSecretContext, type GatewayContext } from './context';
import { getApp } from './apps';
import { missingRequiredEvents } from '../domain/contract-rules';
import type { ContractVersion } from './entities';

/** Rules across fields (the JSON schema has checked each field alone). */
function checkContract(ctx: GatewayContext, input: ContractVersionInput): void {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const event of missingRequiredEvents(input.scopes, input.subscribedEvents))
    add('subscribedEvents', `must include ${event}: a version with a Delivery.* scope is a delivery provider's`);
  if (input.subscribedEvents.length > 0 && !input.webhookUrl)
    add('webhookUrl', 'is required when events are subscribed');
  if (input.webhookUrl) {
    const problem = outboundUrlProblem(input.webhookUrl, { allowLoopbackHttp: ctx.allowLoopbackHttpUrls });
    if (problem) add('webhookUrl', problem);
  }
  if (input.authType === 'OAuth2' && !input.oauth2) add('oauth2', 'is required for authType OAuth2');
  if (input.authType === 'ApiKey' && input.oauth2) add('oauth2', 'must be null for authType ApiKey');
  if (input.authType === 'OAuth2' && input.oauth2) {
    for (const field of ['authorizationEndpoint', 'tokenEndpoint'] as const) {
      const problem = outboundUrlProblem(input.oauth2[field], { allowLoopbackHttp: ctx.allowLoopbackHttpUrls });
      if (problem) add(`oauth2.${field}`, problem);
    }
  }
  if (Object.keys(errors).length > 0)
    throw new AppError('validation', 'request.invalid', 'The contract version is invalid.', { fieldErrors: errors });
}

function contractFields(
  ctx: GatewayContext,
  appId: string,
  version: number,
  input: ContractVersionInput,
): ContractFields {
  const oauth2 =
    input.authType === 'OAuth2' && input.oauth2
      ? {
          authorizationEndpoint: input.oauth2.authorizationEndpoint,
          tokenEndpoint: input.oauth2.tokenEndpoint,
          clientId: input.oauth2.clientId,
          clientSecretSealed: ctx.box.seal(input.oauth2.clientSecret, clientSecretContext(appId, version)),
          scopes: input.oauth2.scopes ?? [],
          tokenEndpointAuthMethod: input.oauth2.tokenEndpointAuthMethod ?? 'client_secret_basic',
        }
      : null;
  return {
    authType: input.authType,
    scopes: [...new Set(input.scopes)],
    subscribedEvents: [...new Set(input.subscribedEvents)],
    webhookUrl: input.webhookUrl ?? null,
    oauth2,
  };
}

export async function createContractVersion(
  ctx: GatewayContext,
  appId: string,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  await getApp(ctx, appId);
  checkContract(ctx, input);
  // One creation per app at a time, so concurrent ones queue instead of racing for a number.
  const created = await ctx.locks.withLock(`contract-versions:${appId}`, { ttlMs: 10_000, waitMs: 10_000 }, () =>
    insertNextVersion(ctx, appId, input),
  );
  if (!created) throw busy('Another version is being created for this app; try again shortly.');
  return created.value;
}

/** Under the per-app lock: the highest number plus one. The unique `_id` still guards the number
 * should the lock ever expire mid-way (then the loser is told to retry). */
async function insertNextVersion(
  ctx: GatewayContext,
  appId: string,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  const last = await ctx.store.contractVersions.findLatestForApp(appId);
  const version = (last?.version ?? 0) + 1;
  const now = ctx.now();
  const doc: ContractVersion = {
    _id: contractVersionId(appId, version),
    appId,
    version,
    status: 'Draft',
    ...contractFields(ctx, appId, version, input),
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
  };
  try {
    await ctx.store.contractVersions.insert(doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw busy('Another version is being created for this app; try again shortly.');
    throw error;
  }
  return doc;
}

export async function getContractVersion(
  ctx: GatewayContext,
  appId: string,
  version: number,
): Promise<ContractVersion> {
  const doc = await ctx.store.contractVersions.findVersion(appId, version);
  if (!doc) throw notFound();
  return doc;
}

/**
 * Changes of one version run one at a time (a Redis lock): an edit reads, checks and writes, and
 * one racing the publication must not slip into a published version. The writes are conditional
 * on the draft status as well; the lock keeps the whole read-check-write in one piece.
 */
async function serialized<T>(ctx: GatewayContext, appId: string, version: number, work: () => Promise<T>): Promise<T> {
  const result = await ctx.locks.withLock(`contract:${appId}:${version}`, { ttlMs: 10_000, waitMs: 5_000 }, work);
  if (!result) throw busy('The contract version is being changed; try again shortly.');
  return result.value;
}

export function updateContractVersion(
  ctx: GatewayContext,
  appId: string,
  version: number,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  return serialized(ctx, appId, version, () => updateUnlocked(ctx, appId, version, input));
}

export function publishContractVersion(ctx: GatewayContext, appId: string, version: number): Promise<ContractVersion> {
  return serialized(ctx, appId, version, () => publishUnlocked(ctx, appId, version));
}

async function updateUnlocked(
  ctx: GatewayContext,
  appId: string,
  version: number,
  input: ContractVersionInput,
): Promise<ContractVersion> {
  const current = await getContractVersion(ctx, appId, version);
  if (current.status === 'Published')
    throw conflict(
      'marketplace.contract_version.published',
      'A published contract version is immutable; create a new version.',
    );
  checkContract(ctx, input);
  const updated = await ctx.store.contractVersions.updateDraft(
    appId,
    version,
    contractFields(ctx, appId, version, input),
    ctx.now(),
  );
  if (!updated)
    throw conflict(
      'marketplace.contract_version.published',
      'A published contract version is immutable; create a new version.',
    );
  return updated;
}

async function publishUnlocked(ctx: GatewayContext, appId: string, version: number): Promise<ContractVersion> {
  const current = await getContractVersion(ctx, appId, version);
  if (current.status === 'Published') return current;
  const updated = await ctx.store.contractVersions.publishDraft(appId, version, ctx.now());
  return updated ?? (await getContractVersion(ctx, appId, version));
}
