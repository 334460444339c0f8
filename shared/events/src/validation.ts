import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** A fresh ajv with the formats our schemas use (uuid, date-time, uri, email). */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv;
}

/** Compiles each schema once and reports failures as readable `path: message` strings. */
export class SchemaValidator {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(schemas: Iterable<[string, Record<string, unknown>]>) {
    for (const [name, schema] of schemas) this.compiled.set(name, this.ajv.compile(schema));
  }

  /** Returns the problems with `value`, empty when it is valid. */
  problems(name: string, value: unknown): string[] {
    const validate = this.compiled.get(name);
    if (!validate) return [`no schema for ${name}`];
    return validate(value) ? [] : (validate.errors ?? []).map(describe);
  }
}

function describe(error: ErrorObject): string {
  const path = error.instancePath === '' ? '(root)' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${path} ${error.message ?? 'is invalid'}${extra}`;
}
