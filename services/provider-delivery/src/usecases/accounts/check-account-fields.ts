import type { PlatformAccountPatch } from '@marketplace/contracts';
import { PROVIDER_LIMITS } from '@marketplace/contracts';
import { validationError, type FieldErrors } from '@marketplace/errors';
import { areaGeometryProblem } from '@marketplace/geo';
import { outboundUrlProblem } from '@marketplace/http';
import type { AccountChanges } from '../../adapters/platform-accounts-repository';
import { checkCapabilities, checkEventTypes, type ServiceArea } from '../../domain/platform-account';
import type { ProviderContext } from '../context';

/** The rules beyond the schema: the webhook URL's safety, the area's rings, proof of delivery. */
export function checkAccountFields(ctx: ProviderContext, input: PlatformAccountPatch): AccountChanges {
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
