/**
 * Builders for the contracts' JSON Schemas. Each schema here is used three ways: ajv validates with
 * it (draft-07), OpenAPI 3.1 documents embed it under `components.schemas`, and
 * `npm run contracts:generate` turns it into a TypeScript type. So the builders stay in the part of
 * JSON Schema on which those three agree: `type` unions for null (OpenAPI 3.1 has no `nullable`),
 * no `$id`, and references only as `#/components/schemas/<Name>` (in response schemas; request
 * schemas are self-contained because ajv compiles them alone).
 */
export type JsonSchema = Record<string, unknown>;

const described = (schema: JsonSchema, description?: string): JsonSchema =>
  description ? { ...schema, description } : schema;

/** `$ref` to another contract schema, by its name in the registry (`components.schemas`). */
export const ref = (name: string, description?: string): JsonSchema =>
  described({ $ref: `#/components/schemas/${name}` }, description);

export const str = (description?: string): JsonSchema => described({ type: 'string' }, description);
export const bool = (description?: string): JsonSchema => described({ type: 'boolean' }, description);
export const uuid = (description?: string): JsonSchema => described({ type: 'string', format: 'uuid' }, description);
export const int32 = (description?: string): JsonSchema => described({ type: 'integer', format: 'int32' }, description);
export const double = (description?: string): JsonSchema =>
  described({ type: 'number', format: 'double' }, description);
export const dateTime = (description?: string): JsonSchema =>
  described({ type: 'string', format: 'date-time' }, description);
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema =>
  described({ type: 'array', items }, description);
/** A non-empty string of at most `max` characters. */
export const text = (max: number, description?: string): JsonSchema =>
  described({ type: 'string', minLength: 1, maxLength: max }, description);
/** Money in a currency's major unit, as the APIs show it (minor units stay inside the services). */
export const money = (description = "In the currency's major unit: 9.5 is EUR 9.50."): JsonSchema => ({
  type: 'number',
  format: 'double',
  minimum: 0,
  description,
});

/**
 * The schema, or null. A `type` union rather than `anyOf`, so that a wrong value gets one clear
 * message at its own path; a `$ref`, an enum or a titled shape gets `anyOf`.
 */
export function nullable(schema: JsonSchema, description?: string): JsonSchema {
  // A titled shape keeps its name for the non-null part only (the generated type is `Name | null`).
  if ('title' in schema) return described({ anyOf: [schema, { type: 'null' }] }, description);
  const type = schema.type;
  if (typeof type === 'string' && !('enum' in schema) && !('const' in schema))
    return described({ ...schema, type: [type, 'null'] }, description);
  if (Array.isArray(type) && !('enum' in schema))
    return described({ ...schema, type: [...new Set([...(type as unknown[]), 'null'])] }, description);
  return described({ anyOf: [schema, { type: 'null' }] }, description);
}

export interface ObjectOptions {
  /** Properties that may be absent; every other property is required. */
  optional?: string[];
  /** Whether other properties are refused (true unless said otherwise: our bodies are closed). */
  closed?: boolean;
  description?: string;
}

/** An object with these properties, all required unless listed in `optional`, nothing else. */
export function object(
  properties: Record<string, JsonSchema>,
  optionsOrDescription: ObjectOptions | string = {},
): JsonSchema {
  const options =
    typeof optionsOrDescription === 'string' ? { description: optionsOrDescription } : optionsOrDescription;
  const optional = new Set(options.optional ?? []);
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    ...(options.closed === false ? {} : { additionalProperties: false }),
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    properties,
  };
}

/** An integer enumeration with its names, for readers and generated clients. */
export const intEnum = (values: Record<string, number>, description: string): JsonSchema => ({
  type: 'integer',
  format: 'int32',
  enum: Object.values(values),
  'x-enum-varnames': Object.keys(values),
  description,
});

export const nullableStr = (description?: string): JsonSchema => nullable(str(), description);
export const nullableUuid = (description?: string): JsonSchema => nullable(uuid(), description);
export const nullableDouble = (description?: string): JsonSchema => nullable(double(), description);
export const nullableDateTime = (description?: string): JsonSchema => nullable(dateTime(), description);
export const nullableRef = (name: string, description?: string): JsonSchema => nullable(ref(name), description);
