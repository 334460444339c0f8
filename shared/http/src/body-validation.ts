import Ajv, { type ErrorObject, type JSONSchemaType, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { validationError, type FieldErrors } from '@marketplace/errors';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);

/**
 * Compiles a JSON Schema for a request body once; the returned function gives the typed body or
 * throws a validation AppError whose field errors name each offending field the way clients
 * write it (`lines[2].modifierSelections[0].modifierOptionId`), which the HTTP layer renders as
 * problem+json `errors` (or the provider envelope's `fieldErrors`).
 */
export function bodyValidator<T>(schema: JSONSchemaType<T> | Record<string, unknown>, code = 'request.invalid') {
  const validate = ajv.compile(schema) as ValidateFunction<T>;
  return (body: unknown): T => {
    if (validate(body)) return body;
    throw validationError(code, 'The request is invalid.', fieldErrorsOf(validate.errors ?? []));
  };
}

/** ajv errors grouped by field path; a missing property is reported at its own path. */
export function fieldErrorsOf(errors: ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    const segments = pointerSegments(error.instancePath);
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      segments.push(String(error.params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      segments.push(String(error.params.additionalProperty));
      message = 'is not allowed';
    }
    const path = fieldPath(segments) || '(body)';
    const messages = (out[path] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return out;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `["lines","2","quantity"]` → `lines[2].quantity`. */
export function fieldPath(segments: string[]): string {
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}
