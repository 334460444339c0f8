import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AppError, type FieldErrors } from '@marketplace/errors';
import type { JsonSchema } from '@marketplace/contracts';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
// Annotations of the contracts' schemas that ajv has no use for: enum names for readers of the
// OpenAPI documents, and the type override of the TypeScript generator.
ajv.addVocabulary(['x-enum-varnames', 'x-enum-descriptions', 'tsType']);

/**
 * Compiles a contract's JSON Schema for a request body once; the returned function gives the body
 * as the contract's generated type, or throws a validation AppError (`request.invalid`) whose field
 * errors name each offending field the way clients write it
 * (`lines[2].modifierSelections[0].modifierOptionId`), which the HTTP layer renders as problem+json
 * `errors` (or the provider envelope's `fieldErrors`). `T` must be the type generated from `schema`
 * (`@marketplace/contracts`): that is what makes the conversion below sound. The failure is 400,
 * or 422 with `status: 422` (the provider contract answers invalid fields so, malformed JSON 400).
 *
 * `dropUnknown`: for open schemas whose unknown properties are accepted and ignored (the provider
 * contract's versioning: a new optional request property is backward compatible). The valid body
 * is returned as `projectOntoSchema` leaves it, a copy with only the properties the schema names,
 * at every level, so nothing unknown reaches a use case, a store or a fingerprint. Without it the
 * body is returned as it is.
 */
export function bodyValidator<T>(
  schema: JsonSchema,
  options: { code?: string; status?: 400 | 422; dropUnknown?: boolean } = {},
) {
  const validate = ajv.compile(schema) as ValidateFunction<T>;
  const kind = options.status === 422 ? 'unprocessable' : 'validation';
  const code = options.code ?? 'request.invalid';
  return (body: unknown): T => {
    if (validate(body)) return options.dropUnknown ? (projectOntoSchema(schema, body) as T) : body;
    throw new AppError(kind, code, 'The request is invalid.', { fieldErrors: fieldErrorsOf(validate.errors ?? []) });
  };
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema and every schema that describes the same value with it (its branches, a condition's outcomes). */
function alongside(schema: Schema): Schema[] {
  const out: Schema[] = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const branch of Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])
      if (isSchema(branch)) out.push(...alongside(branch));
  for (const key of ['then', 'else'] as const) {
    const outcome = schema[key];
    if (isSchema(outcome)) out.push(...alongside(outcome));
  }
  return out;
}

/**
 * The part of a valid `value` that `schema` describes: of an object, the properties its schema
 * (or one of its `anyOf`, `oneOf`, `allOf`, `then`, `else` schemas) names, each projected onto
 * its own schemas; of an array, each item onto `items`. Kept whole: an object whose schemas name
 * no property, or take other properties by a schema or `true` (a map), and every other value. A
 * new value: `value` itself is not changed. For open schemas whose unknown properties are
 * accepted and ignored (`bodyValidator`'s `dropUnknown`).
 */
export function projectOntoSchema(schema: JsonSchema, value: unknown): unknown {
  return project([schema], value);
}

function project(schemas: Schema[], value: unknown): unknown {
  const all = schemas.flatMap(alongside);
  if (Array.isArray(value)) {
    const items = all.map((s) => s.items).filter(isSchema);
    return items.length === 0 ? value : value.map((item) => project(items, item));
  }
  if (!isSchema(value)) return value;
  const named = new Map<string, Schema[]>();
  for (const s of all) {
    if (!isSchema(s.properties)) continue;
    for (const [name, sub] of Object.entries(s.properties)) {
      const known = named.get(name) ?? [];
      named.set(name, isSchema(sub) ? [...known, sub] : known);
    }
  }
  const open = all.some((s) => s.additionalProperties === true || isSchema(s.additionalProperties));
  if (named.size === 0 || open) return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const subschemas = named.get(name);
    if (subschemas !== undefined) out[name] = subschemas.length === 0 ? item : project(subschemas, item);
  }
  return out;
}

/**
 * Most fields one answer names. With `allErrors`, an array far over its `maxItems` (an order of
 * 10,000 empty lines fits in 30 kB) would otherwise be answered with an error for every item: a
 * 30 kB request turned into a 1.6 MB answer (and a stored idempotent response). The first fields,
 * the array's own `maxItems` among them, say what is wrong.
 */
export const MAX_FIELD_ERRORS = 50;

/** ajv errors grouped by field path; a missing property is reported at its own path. */
export function fieldErrorsOf(errors: ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  let fields = 0;
  for (const error of errors) {
    if (isSummary(error, errors)) continue;
    const segments = pointerSegments(error.instancePath);
    // A property name that breaks `propertyNames` (a translation's language tag) is named itself;
    // the `propertyNames` error only sums up that name's own failure.
    if (error.keyword === 'propertyNames') continue;
    if (error.propertyName !== undefined) segments.push(error.propertyName);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'enum' && (error.params.allowedValues as unknown[]).length <= 12) {
      message = `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (error.keyword === 'false schema') {
      message = 'is not allowed here';
    } else if (error.keyword === 'required') {
      segments.push(String(error.params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      segments.push(String(error.params.additionalProperty));
      message = 'is not allowed';
    }
    const path = fieldPath(segments) || '(body)';
    if (!(path in out) && ++fields > MAX_FIELD_ERRORS) continue;
    const messages = (out[path] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return out;
}

/**
 * Errors that only sum up others: `if` (a `then` or `else` failed, reported itself), and for a
 * nullable shape (`anyOf: [shape, null]`) the `anyOf` and the "must be null" of its null branch
 * when the shape's own failures at or under the same place say what is wrong.
 */
function isSummary(error: ErrorObject, all: ErrorObject[]): boolean {
  if (error.keyword === 'if') return true;
  const alternative =
    error.keyword === 'anyOf' ||
    error.keyword === 'oneOf' ||
    (error.keyword === 'type' && error.params.type === 'null');
  if (!alternative) return false;
  const at = error.instancePath;
  return all.some(
    (other) =>
      other !== error &&
      !isAlternativeBranch(other, at) &&
      (other.instancePath === at || other.instancePath.startsWith(`${at}/`)),
  );
}

const isAlternativeBranch = (error: ErrorObject, at: string) =>
  error.instancePath === at &&
  (error.keyword === 'anyOf' ||
    error.keyword === 'oneOf' ||
    (error.keyword === 'type' && error.params.type === 'null'));

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `["lines","2","quantity"]` → `lines[2].quantity`. */
export function fieldPath(segments: string[]): string {
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
    '',
  );
}
