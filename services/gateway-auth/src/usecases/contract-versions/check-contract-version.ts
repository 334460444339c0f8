import { AppError, type FieldErrors } from '@marketplace/errors';
import { outboundUrlProblem } from '@marketplace/http';
import type { ContractVersionInput } from '@marketplace/contracts';
import { missingRequiredEvents } from '../../domain/contract-rules';
import type { GatewayContext } from '../context';

/**
 * Rules across fields (the JSON schema has checked each field alone), shared by creation and
 * update; a 400 with every problem by field.
 */
export function checkContractVersion(ctx: GatewayContext, input: ContractVersionInput): void {
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
