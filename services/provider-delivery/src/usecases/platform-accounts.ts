import type { PlatformAccountInput, PlatformAccountPatch } from '@marketplace/contracts';
import { notFound, validationError, type FieldErrors } from '@marketplace/errors';
import { outboundUrlProblem } from '@marketplace/http';
import { PROVIDER_LIMITS, TOPICS } from '@marketplace/contracts';
import type { OutgoingEvent } from '@marketplace/events';
import type { AccountChanges } from '../adapters/platform-accounts-repository';
import {
  checkCapabilities,
  checkEventTypes,
  defaultEventTypes,
  defaultRateLimit,
  SIMULATOR_OFF,
  mintWebhookSecret,
  type PlatformAccount,
} from '../domain/platform-account';
import { areaGeometryProblem } from '@marketplace/geo';
import type { ServiceArea } from '../domain/platform-account';
import { sealedForTransport } from './account-secrets';
import { webhookSecretContext, type ProviderContext } from './context';

/** At most this many accounts in the administrators' list. */
export const ACCOUNT_LIST_LIMIT = 1_000;

/** The rules beyond the schema: the webhook URL's safety, the area's rings, proof of delivery. */
function checkFields(ctx: ProviderContext, input: PlatformAccountPatch): AccountChanges {
  const errors: FieldErrors = {};
  const changes: AccountChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.webhookUrl !== undefined) {
    const problem =
      input.webhookUrl === null
        ? undefined
        : outboundUrlProblem(input.webhookUrl, {
            allowLoopbackHttp: ctx.allowLoopbackHttpUrls,
            standardPortOnly: true,
            maxLength: PROVIDER_LIMITS.callbackUrlMaxLength,
          });
    if (problem) errors.webhookUrl = [problem];
    else changes.webhookUrl = input.webhookUrl;
  }
  if (input.capabilities !== undefined) {
    const checked = checkCapabilities(input.capabilities);
    if ('errors' in checked) Object.assign(errors, checked.errors);
    else changes.capabilities = checked.capabilities;
  }
  if (input.rateLimit !== undefined) changes.rateLimit = { requestsPerMinute: input.rateLimit.requestsPerMinute };
  if (input.simulator !== undefined) {
    const { enabled, drivers, timeScale } = input.simulator;
    changes.simulator = { enabled, drivers, timeScale };
  }
  if (input.eventTypes !== undefined) {
    const checked = checkEventTypes(input.eventTypes);
    if ('errors' in checked) Object.assign(errors, checked.errors);
    else changes.eventTypes = checked.eventTypes;
  }
  if (input.serviceArea !== undefined) {
    const problem = areaGeometryProblem(input.serviceArea);
    if (problem) errors.serviceArea = [problem];
    else changes.serviceArea = input.serviceArea as ServiceArea;
  }
  if (Object.keys(errors).length > 0) throw validationError('request.invalid', 'The request is invalid.', errors);
  return changes;
}

/** A new account and its webhook secret (the only time the secret is returned). */
export async function createAccount(
  ctx: ProviderContext,
  input: PlatformAccountInput,
): Promise<{ account: PlatformAccount; webhookSecret: string }> {
  const changes = checkFields(ctx, input);
  const now = ctx.now();
  const account: PlatformAccount = {
    id: ctx.newId(),
    name: input.name,
    webhookUrl: changes.webhookUrl ?? null,
    capabilities: changes.capabilities!,
    serviceArea: changes.serviceArea!,
    rateLimit: changes.rateLimit ?? defaultRateLimit(),
    simulator: changes.simulator ?? SIMULATOR_OFF,
    eventTypes: changes.eventTypes ?? defaultEventTypes(),
    createdAt: now,
    updatedAt: now,
  };
  const webhookSecret = mintWebhookSecret();
  await ctx.store.accounts.insert(account, ctx.box.seal(webhookSecret, webhookSecretContext(account.id)));
  ctx.logger.info({ accountId: account.id }, 'platform account created');
  return { account, webhookSecret };
}

export async function getAccount(ctx: ProviderContext, accountId: string): Promise<PlatformAccount> {
  const account = await ctx.store.accounts.find({ accountId });
  if (!account) throw notFound();
  return account;
}

export function listAccounts(ctx: ProviderContext): Promise<PlatformAccount[]> {
  return ctx.store.accounts.listAll(ACCOUNT_LIST_LIMIT);
}

export async function updateAccount(
  ctx: ProviderContext,
  accountId: string,
  input: PlatformAccountPatch,
): Promise<PlatformAccount> {
  const changes = checkFields(ctx, input);
  const account = await ctx.store.accounts.update({ accountId }, changes, ctx.now());
  if (!account) throw notFound();
  ctx.keyCache.forgetAccount(accountId);
  // The chosen event types are cached with the signing secret: this process applies a change at once.
  ctx.transportSecrets.forget(accountId);
  ctx.logger.info({ accountId, fields: Object.keys(changes) }, 'platform account changed');
  return account;
}

/** The collection whose documents stage the rotations of webhook secrets (the outbox relay publishes them). */
export const ACCOUNTS_OUTBOX = 'platform_accounts';

/**
 * A new webhook secret, shown once; the old one stops signing at once. The webhook sender learns it
 * from `platform-account.webhook-secret-rotated` on `provider-events`, staged in the same write, so
 * the next attempt of every pending event is signed with the new one.
 */
export async function rotateWebhookSecret(
  ctx: ProviderContext,
  accountId: string,
): Promise<{ webhookSecret: string; rotatedAt: Date }> {
  const webhookSecret = mintWebhookSecret();
  const rotatedAt = ctx.now();
  const sealed = ctx.box.seal(webhookSecret, webhookSecretContext(accountId));
  const rotation: OutgoingEvent = {
    topic: TOPICS.providerEvents,
    key: accountId,
    type: 'platform-account.webhook-secret-rotated',
    data: {
      accountId,
      webhookSecret: sealedForTransport(ctx.transportKey, accountId, webhookSecret, rotatedAt),
      delivery: null,
    },
  };
  if (!(await ctx.store.accounts.replaceWebhookSecret({ accountId }, sealed, rotatedAt, [rotation]))) throw notFound();
  ctx.transportSecrets.forget(accountId);
  await ctx.outbox.flush(ACCOUNTS_OUTBOX, accountId);
  ctx.logger.info({ accountId }, 'platform webhook secret rotated');
  return { webhookSecret, rotatedAt };
}

/** The account's webhook secret in clear, for signing its events; undefined when there is no such account. */
export async function webhookSecretOf(ctx: ProviderContext, accountId: string): Promise<string | undefined> {
  const stored = await ctx.store.accounts.findSealedWebhookSecret({ accountId });
  return stored === undefined ? undefined : ctx.box.open(stored.sealed, webhookSecretContext(accountId));
}
