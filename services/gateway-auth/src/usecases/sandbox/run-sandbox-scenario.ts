import { AppError, validationError } from '@marketplace/errors';
import type { SandboxScenarioRequest } from '@marketplace/contracts';
import type { CallerIdentity } from '@marketplace/identity';
import type { Logger } from '@marketplace/logging';
import type { Owner } from '../../domain/partner-routes';
import { SANDBOX } from '../../domain/sandbox';
import type { GatewayContext } from '../context';
import type { PartnerCaller } from '../credentials/authenticate-partner';
import { forwardToOwner, type ForwardRouting } from '../forward-to-owner';
import { rotateWebhookSecret } from '../installations/rotate-webhook-secret';
import type { UpstreamResponse } from '../ports';

/** What a scenario did: the owner's answer (the order, the assignment), or the new secret. */
export interface ScenarioOutcome {
  status: number;
  body: unknown;
}

const notSandbox = () =>
  new AppError('forbidden', 'sandbox.not_a_sandbox', 'Scenarios run only for installations of a sandbox tenant.');

/**
 * Runs a sandbox scenario for the calling installation (domain/sandbox.ts): the gateway acts as the
 * sandbox tenant would, through the very routes of the tenant API (signed as the tenant), so the
 * services, their rules and the webhooks are production's. An owner's refusal (an order in another
 * state: 409; another tenant's order: 404) is answered as it is. Only for a sandbox tenant (403
 * `sandbox.not_a_sandbox`).
 */
export async function runSandboxScenario(
  ctx: GatewayContext,
  routing: ForwardRouting,
  caller: PartnerCaller,
  request: SandboxScenarioRequest,
  log: Logger,
): Promise<ScenarioOutcome> {
  const tenant = await ctx.store.tenants.findTenant({ tenantId: caller.tenantId });
  if (tenant?.sandbox !== true) throw notSandbox();
  const missing = SANDBOX[request.scenario].needs.filter((field) => request[field] === undefined);
  if (missing.length > 0)
    throw validationError(
      'request.invalid',
      'The request is invalid.',
      Object.fromEntries(missing.map((field) => [field, [`is required for ${request.scenario}`]])),
    );
  const asTenant = { kind: 'tenant' as const, tenantId: caller.tenantId, tenant: caller.tenant };
  const post = (owner: Owner, path: string, body: unknown, identity: CallerIdentity = asTenant) =>
    postAs(routing, owner, path, body, identity, log);
  const orders = `/api/tenant/v1/orders/${request.orderId}`;
  const deliveries = `/api/tenant/v1/deliveries/${request.orderId}`;
  switch (request.scenario) {
    case 'order.accept':
      return post('ordering', `${orders}/accept`, {});
    case 'order.reject':
      return post('ordering', `${orders}/reject`, {});
    case 'order.cancel':
      return post('ordering', `${orders}/cancel`, {});
    case 'delivery.assign':
      return post('delivery', `${deliveries}/assign`, { installationId: caller.installationId });
    case 'delivery.reassign':
      return post('delivery', `${deliveries}/assign`, { installationId: request.installationId });
    case 'webhook.fail':
      return post('webhooks', '/api/partner/v1/sandbox/webhook-failures', { times: request.times }, asPartner(caller));
    case 'secret.rotate': {
      const { credentials } = await rotateWebhookSecret(ctx, caller.tenantId, caller.installationId);
      return { status: 200, body: { webhookSigningSecret: credentials.webhookSigningSecret } };
    }
  }
}

/** The caller as itself (webhook-sender keeps the failures per installation). */
function asPartner(caller: PartnerCaller): CallerIdentity {
  return {
    kind: 'partner',
    tenantId: caller.tenantId,
    tenant: caller.tenant,
    installationId: caller.installationId,
    appId: caller.appId,
    scopes: caller.scopes,
  };
}

/** A POST through the owner's own route, as `identity`. */
async function postAs(
  routing: ForwardRouting,
  owner: Owner,
  path: string,
  body: unknown,
  identity: CallerIdentity,
  log: Logger,
): Promise<ScenarioOutcome> {
  const request = {
    method: 'POST',
    path,
    pathAndQuery: path,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  return answer(await forwardToOwner(routing, owner, request, identity, log));
}

/** The owner's answer as JSON (or its text), with its status. */
function answer(response: UpstreamResponse): ScenarioOutcome {
  const text = Buffer.isBuffer(response.body) ? response.body.toString('utf8') : String(response.body);
  try {
    return { status: response.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: response.status, body: text };
  }
}
