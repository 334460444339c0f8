import {
  requestSchemas,
  type AppInput,
  type ContractVersionInput,
  type InstallationApiKeyRotateRequest,
  type InstallationInput,
  type TenantInput,
  type TenantTokenRequest,
} from '@marketplace/contracts';
import { bodyValidator } from '@marketplace/http';

/** Request bodies of the administrator and tenant APIs: the contracts' schemas, which marketplace-api.ts documents. */
export const validateTenantInput = bodyValidator<TenantInput>(requestSchemas.TenantInput);
export const validateTokenRequest = bodyValidator<TenantTokenRequest>(requestSchemas.TenantTokenRequest);
export const validateAppInput = bodyValidator<AppInput>(requestSchemas.AppInput);
export const validateContractVersionInput = bodyValidator<ContractVersionInput>(requestSchemas.ContractVersionInput);
export const validateInstallInput = bodyValidator<InstallationInput>(requestSchemas.InstallationInput);
export const validateApiKeyRotateRequest = bodyValidator<InstallationApiKeyRotateRequest>(
  requestSchemas.InstallationApiKeyRotateRequest,
);
