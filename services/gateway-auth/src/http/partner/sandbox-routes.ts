import type { RouterContext } from '@koa/router';
import { requestSchemas, type SandboxScenarioRequest } from '@marketplace/contracts';
import { validationError } from '@marketplace/errors';
import { bodyValidator, requestBody, requestFingerprint, type RouteTable } from '@marketplace/http';
import { unauthenticated } from '@marketplace/identity';
import { checkIdempotencyKey } from '../../domain/idempotency';
import { PARTNER_PREFIX } from '../../domain/partner-routes';
import { SANDBOX } from '../../domain/sandbox';
import type { GatewayContext } from '../../usecases/context';
import { runIdempotentRequest } from '../../usecases/run-idempotent-request';
import { runSandboxScenario } from '../../usecases/sandbox/run-sandbox-scenario';
import { sendUpstream } from '../forward';
import type { PartnerState } from './edge';
import type { PartnerRouting } from './routes';

export const SANDBOX_SCENARIOS_PATH = `${PARTNER_PREFIX}/sandbox/scenarios`;
const validateScenario = bodyValidator<SandboxScenarioRequest>(requestSchemas.SandboxScenarioRequest);

/**
 * The sandbox (ours, an extension of Partner API v1): a sandbox tenant's installation runs a
 * scripted scenario (domain/sandbox.ts) with its API key, any key, no scope. A POST like every
 * other: Idempotency-Key required and honoured (a repeat answers the first outcome, runs nothing).
 * The answer: the scenario, the webhooks it makes and to whom, and the outcome (the owner's answer,
 * or the new signing secret), with the owner's status; a refusal of the owner passes as it is.
 */
export function registerSandboxRoutes(routes: RouteTable, ctx: GatewayContext, routing: PartnerRouting): void {
  routes.post(SANDBOX_SCENARIOS_PATH, 'partner', async (c: RouterContext<PartnerState>) => {
    const caller = c.state.partner;
    if (!caller) throw unauthenticated();
    const key = c.get('idempotency-key');
    const problem = checkIdempotencyKey(key);
    if (problem === 'missing')
      throw validationError('idempotency.key_missing', 'The Idempotency-Key header is required on POST and PATCH.');
    if (problem)
      throw validationError(
        'idempotency.key_invalid',
        'The Idempotency-Key header must be 1 to 128 characters without leading or trailing whitespace.',
      );
    const request = validateScenario(requestBody(c));
    const run = async () => {
      const outcome = await runSandboxScenario(ctx, routing, caller, request, c.state.log);
      const ok = outcome.status >= 200 && outcome.status < 300;
      const scenario = SANDBOX[request.scenario];
      const body = ok
        ? { scenario: request.scenario, does: scenario.does, emits: scenario.emits, outcome: outcome.body }
        : outcome.body;
      return {
        status: outcome.status,
        headers: {
          'content-type': ok ? 'application/json; charset=utf-8' : 'application/problem+json; charset=utf-8',
          'cache-control': 'no-store',
        },
        body: JSON.stringify(body),
      };
    };
    // A new signing secret is shown once and never stored (an idempotency record would keep it in
    // the clear): a repeat of secret.rotate rotates again.
    if (request.scenario === 'secret.rotate') return sendUpstream(c, await run());
    const result = await runIdempotentRequest(
      ctx,
      routing.idempotency,
      {
        owner: { tenantId: caller.tenantId, installationId: caller.installationId },
        key,
        fingerprint: requestFingerprint(c.method, c.path, requestBody(c)),
      },
      run,
    );
    sendUpstream(c, result.response);
    if (result.replayed) c.set('Idempotent-Replayed', 'true');
  });
}
