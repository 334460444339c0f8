/**
 * Building blocks of the services' OpenAPI 3.1 documents (tenant APIs), so that every document
 * says the same things the same way: references, nullability, closed objects, problem answers.
 */
export type Json = Record<string, unknown>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
export const uuid: Json = { type: 'string', format: 'uuid' };
export const dateTime: Json = { type: 'string', format: 'date-time' };
export const money: Json = {
  type: 'number',
  format: 'double',
  minimum: 0,
  description: "In the currency's major unit: 9.5 is EUR 9.50.",
};
export const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });
/** An object with exactly these properties, all required unless listed in `optional`. */
export const closed = (properties: Json, optional: string[] = []): Json => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});
/** A problem+json answer with its error codes. */
export const problem = (description: string, codes: string): Json => ({
  description: `${description} Codes: ${codes}.`,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
export const json = (description: string, schema: Json): Json => ({
  description,
  content: { 'application/json': { schema } },
});
