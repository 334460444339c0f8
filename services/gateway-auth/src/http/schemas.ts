import { bodyValidator } from '@marketplace/http';
import { AUTH_TYPES, SCOPES, SUBSCRIBABLE_EVENTS } from '../domain/scopes';
import type { TenantInput } from '../usecases/tenants';
import type { AppInput } from '../usecases/apps';
import type { ContractVersionInput } from '../usecases/contract-versions';

/** Request bodies of the administrator and tenant APIs (documented in marketplace-api.ts). */
const slug = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{1,62}$' };
const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
const httpUrl = { type: 'string', minLength: 1, maxLength: 2048 };

export const validateTenantInput = bodyValidator<TenantInput>({
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name', 'currencyCode', 'defaultLanguage'],
  properties: {
    slug,
    name: text(200),
    currencyCode: { type: 'string', enum: Intl.supportedValuesOf('currency') }, // ISO 4217 codes in use
    defaultLanguage: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
  },
});

export const validateTokenRequest = bodyValidator<{ expiresInSeconds?: number }>({
  type: 'object',
  additionalProperties: false,
  properties: { expiresInSeconds: { type: 'integer', minimum: 60, maximum: 31_536_000 } },
});

export const validateAppInput = bodyValidator<AppInput>({
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name'],
  properties: { slug, name: text(200), description: { type: ['string', 'null'], maxLength: 2000 } },
});

export const validateContractVersionInput = bodyValidator<ContractVersionInput>({
  type: 'object',
  additionalProperties: false,
  required: ['authType', 'scopes', 'subscribedEvents'],
  properties: {
    authType: { enum: [...AUTH_TYPES] },
    scopes: { type: 'array', uniqueItems: true, maxItems: SCOPES.length, items: { enum: [...SCOPES] } },
    subscribedEvents: { type: 'array', uniqueItems: true, maxItems: SUBSCRIBABLE_EVENTS.length, items: { enum: [...SUBSCRIBABLE_EVENTS] } },
    webhookUrl: { ...httpUrl, type: ['string', 'null'] },
    oauth2: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['authorizationEndpoint', 'tokenEndpoint', 'clientId', 'clientSecret'],
      properties: {
        authorizationEndpoint: httpUrl,
        tokenEndpoint: httpUrl,
        clientId: text(512),
        clientSecret: text(2048),
        scopes: { type: 'array', maxItems: 50, items: { type: 'string', pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,200}$' } },
        tokenEndpointAuthMethod: { enum: ['client_secret_basic', 'client_secret_post'] },
      },
    },
  },
});

export const validateInstallInput = bodyValidator<{ appId: string; contractVersion: number }>({
  type: 'object',
  additionalProperties: false,
  required: ['appId', 'contractVersion'],
  properties: { appId: { type: 'string', format: 'uuid' }, contractVersion: { type: 'integer', minimum: 1 } },
});
