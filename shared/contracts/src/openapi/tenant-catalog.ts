/**
 * OpenAPI 3.1 description of the catalog's part of the tenant API, served at
 * `GET /api/tenant/v1/catalog/openapi.json` (through the gateway, with a tenant token). Request
 * bodies are the very schemas the routes validate with (../http); catalog serves it, the gateway
 * shows it at /docs, and catalog's unit test checks that it lists exactly the routes served.
 */
import { type Json, closed, json, money, nullable, problem, ref, uuid } from './parts';
import { problemWith } from '../http/problem';
import { requestSchemas } from '../http';

const PREFIX = '/api/tenant/v1/catalog';
const translations: Json = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Language tag (BCP 47) → name.',
};
const stamps: Json = {
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
};
const availabilityMap = (values: number[]): Json => ({
  type: 'object',
  propertyNames: { format: 'uuid' },
  additionalProperties: { type: 'integer', enum: values },
  description: 'Id → 1 (SoldOut at this branch) or 2 (Unavailable at this branch); an absent id is 0 (Available).',
});

const idParam: Json = { name: 'id', in: 'path', required: true, schema: uuid };

const COMMON_ERRORS: Json = {
  '401': problem('No valid tenant token.', '`auth.unauthenticated`'),
};
const WRITE_ERRORS: Json = {
  '400': problem('The body breaks a rule; `errors` names each field.', '`request.invalid`, `request.malformed`'),
  '415': problem('The body is not JSON.', '`request.unsupported_media_type`'),
  '503': {
    description: 'Another change of the same catalog held the write lock too long. Code: `resource.busy`.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: { 'application/problem+json': { schema: ref('Problem') } },
  },
};
const NOT_FOUND: Json = { '404': problem("Missing, deleted or another tenant's.", '`resource.not_found`') };
const IN_USE: Json = { '409': problem('Still used by the resources listed in `usedBy`.', '`catalog.in_use`') };

interface Resource {
  path: string;
  tag: string;
  /** Singular, for operation ids and summaries. */
  noun: string;
  singular: string;
  input: string;
  output: string;
  deleteConflicts: boolean;
}

const RESOURCES: Resource[] = [
  {
    path: 'tax-categories',
    tag: 'Tax categories',
    noun: 'TaxCategory',
    singular: 'tax category',
    input: 'TaxCategoryInput',
    output: 'TaxCategory',
    deleteConflicts: true,
  },
  {
    path: 'branches',
    tag: 'Branches',
    noun: 'Branch',
    singular: 'branch',
    input: 'BranchInput',
    output: 'Branch',
    deleteConflicts: false,
  },
  {
    path: 'categories',
    tag: 'Categories',
    noun: 'Category',
    singular: 'category',
    input: 'CategoryInput',
    output: 'Category',
    deleteConflicts: true,
  },
  {
    path: 'modifier-groups',
    tag: 'Modifier groups',
    noun: 'ModifierGroup',
    singular: 'modifier group',
    input: 'ModifierGroupInput',
    output: 'ModifierGroup',
    deleteConflicts: true,
  },
  {
    path: 'products',
    tag: 'Products',
    noun: 'Product',
    singular: 'product',
    input: 'ProductInput',
    output: 'Product',
    deleteConflicts: false,
  },
];

const op = (tag: string, operationId: string, summary: string, rest: Json): Json => ({
  tags: [tag],
  operationId,
  summary,
  security: [{ tenantToken: [] }],
  ...rest,
  responses: { ...(rest.responses as Json), ...COMMON_ERRORS },
});

function resourcePaths(r: Resource): Record<string, Json> {
  const body = { required: true, content: { 'application/json': { schema: ref(r.input) } } };
  return {
    [`${PREFIX}/${r.path}`]: {
      post: op(r.tag, `create${r.noun}`, `Create a ${r.singular}`, {
        requestBody: body,
        responses: { '201': json('Created.', ref(r.output)), ...WRITE_ERRORS },
      }),
      get: op(r.tag, `list${r.noun}`, `List ${r.tag.toLowerCase()}`, {
        ...(r.path === 'products'
          ? {
              parameters: [
                {
                  name: 'categoryId',
                  in: 'query',
                  required: false,
                  schema: uuid,
                  description: 'Only the products of this category.',
                },
              ],
            }
          : {}),
        responses: {
          '200': json('Every live one of the tenant.', { type: 'array', items: ref(r.output) }),
          ...(r.path === 'products' ? { '400': problem('The categoryId is not a uuid.', '`request.invalid`') } : {}),
        },
      }),
    },
    [`${PREFIX}/${r.path}/{id}`]: {
      parameters: [idParam],
      get: op(r.tag, `get${r.noun}`, 'Read one', {
        responses: { '200': json('The resource.', ref(r.output)), ...NOT_FOUND },
      }),
      put: op(r.tag, `replace${r.noun}`, 'Replace it whole', {
        description:
          'Variants and options that keep their `id` keep their availability; those without one are new; an unknown `id` is refused.',
        requestBody: body,
        responses: { '200': json('Replaced.', ref(r.output)), ...WRITE_ERRORS, ...NOT_FOUND },
      }),
      delete: op(r.tag, `delete${r.noun}`, 'Delete it', {
        responses: {
          '204': { description: 'Deleted.' },
          ...NOT_FOUND,
          ...(r.deleteConflicts ? IN_USE : {}),
          '503': WRITE_ERRORS['503'],
        },
      }),
    },
  };
}

export const tenantCatalogApiDocument: Json = {
  openapi: '3.1.0',
  info: {
    title: 'Catalog management (tenant API)',
    version: '1.0.0',
    description:
      "A restaurant's menu: tax categories, branches, categories, modifier groups with options nested to any depth, products with variants, and availability per branch. " +
      'Everything is scoped to the tenant of the token. Money is given in the major unit of the tenant currency, with at most its decimals. Names are in the tenant default language; `translations` add other languages.',
  },
  servers: [{ url: '/' }],
  tags: ['Tax categories', 'Branches', 'Categories', 'Modifier groups', 'Products', 'Availability', 'Description'].map(
    (name) => ({ name }),
  ),
  paths: {
    ...Object.assign({}, ...RESOURCES.map(resourcePaths)),
    [`${PREFIX}/branches/{id}/availability`]: {
      parameters: [idParam],
      get: op('Availability', 'getAvailability', "Read a branch's availability overrides", {
        responses: { '200': json('The overrides.', ref('Availability')), ...NOT_FOUND },
      }),
      patch: op('Availability', 'patchAvailability', 'Set some entries (0 clears one)', {
        requestBody: { required: true, content: { 'application/json': { schema: ref('AvailabilityPatch') } } },
        responses: {
          '200': json('The overrides after the change.', ref('Availability')),
          ...WRITE_ERRORS,
          ...NOT_FOUND,
        },
      }),
    },
    [`${PREFIX}/openapi.json`]: {
      get: op('Description', 'getCatalogOpenApi', 'This document', {
        responses: { '200': json('OpenAPI 3.1.', { type: 'object' }) },
      }),
    },
  },
  components: {
    securitySchemes: {
      tenantToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'A tenant token (role tenant).',
      },
    },
    schemas: {
      TaxCategoryInput: requestSchemas.TaxCategoryInput,
      BranchInput: requestSchemas.BranchInput,
      CategoryInput: requestSchemas.CategoryInput,
      ModifierGroupInput: requestSchemas.ModifierGroupInput,
      ProductInput: requestSchemas.ProductInput,
      AvailabilityPatch: requestSchemas.AvailabilityPatch,
      TaxCategory: closed({
        id: uuid,
        name: { type: 'string' },
        rate: { type: 'number', format: 'double' },
        isInclusive: { type: 'boolean' },
        translations,
        ...stamps,
      }),
      Branch: closed({
        id: uuid,
        name: { type: 'string' },
        isActive: { type: 'boolean' },
        externalLocationId: nullable({ type: 'string', maxLength: 256 }),
        address: nullable(
          closed({
            line1: { type: 'string' },
            line2: nullable({ type: 'string' }),
            city: { type: 'string' },
            postalCode: nullable({ type: 'string' }),
            countryCode: { type: 'string' },
          }),
        ),
        coordinates: nullable(
          closed({ latitude: { type: 'number', format: 'double' }, longitude: { type: 'number', format: 'double' } }),
        ),
        translations,
        ...stamps,
      }),
      Category: closed({
        id: uuid,
        name: { type: 'string' },
        sortOrder: { type: 'integer', format: 'int32' },
        translations,
        ...stamps,
      }),
      ModifierGroup: closed({
        id: uuid,
        name: { type: 'string' },
        minSelections: { type: 'integer', format: 'int32' },
        maxSelections: { type: 'integer', format: 'int32' },
        isRequired: { type: 'boolean' },
        sortOrder: { type: 'integer', format: 'int32' },
        translations,
        options: {
          type: 'array',
          items: closed({
            id: uuid,
            name: { type: 'string' },
            price: money,
            isDefault: { type: 'boolean' },
            childGroupIds: { type: 'array', items: uuid },
            translations,
          }),
        },
        ...stamps,
      }),
      Product: closed({
        id: uuid,
        categoryId: uuid,
        sortOrder: { type: 'integer', format: 'int32' },
        sku: nullable({ type: 'string' }),
        name: { type: 'string' },
        imageUrl: nullable({ type: 'string' }),
        taxCategoryId: nullable(uuid),
        translations,
        variants: {
          type: 'array',
          items: closed({
            id: uuid,
            sku: nullable({ type: 'string' }),
            name: { type: 'string' },
            price: money,
            compareAtPrice: nullable(money),
            isDefault: { type: 'boolean' },
            modifierGroupIds: { type: 'array', items: uuid },
            translations,
          }),
        },
        ...stamps,
      }),
      Availability: closed({
        branchId: uuid,
        products: availabilityMap([1, 2]),
        variants: availabilityMap([1, 2]),
        modifierOptions: availabilityMap([1, 2]),
      }),
      Problem: problemWith({
        usedBy: { type: 'array', items: uuid, description: 'What still uses the resource (409 catalog.in_use).' },
      }),
    },
  },
};
