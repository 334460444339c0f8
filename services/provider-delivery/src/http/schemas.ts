import {
  requestSchemas,
  type ApiKeyRotateRequest,
  type PlatformAccountInput,
  type PlatformAccountPatch,
} from '@marketplace/contracts';
import { bodyValidator } from '@marketplace/http';

/**
 * Request shapes of the administrator API: the contracts' schemas, which its OpenAPI document shows.
 * Each failure is 400 `request.invalid` with `fieldErrors` by field (the platform API, /v1, answers
 * 422 for the same code, as the provider contract document says).
 */
export const validateAccountInput = bodyValidator<PlatformAccountInput>(requestSchemas.PlatformAccountInput);
export const validateAccountPatch = bodyValidator<PlatformAccountPatch>(requestSchemas.PlatformAccountPatch);
export const validateRotateRequest = bodyValidator<ApiKeyRotateRequest>(requestSchemas.ApiKeyRotateRequest);
