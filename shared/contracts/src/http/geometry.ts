import type { JsonSchema } from '../json-schema';

/** A GeoJSON position: [longitude, latitude] (an altitude may follow and is ignored). */
const position: JsonSchema = {
  type: 'array',
  minItems: 2,
  maxItems: 3,
  items: { type: 'number', minimum: -180, maximum: 180 },
};
/** A ring of at least 4 positions (closed: the last equal to the first, which @marketplace/geo checks). */
const ring: JsonSchema = { type: 'array', minItems: 4, items: position };
const polygon: JsonSchema = { type: 'array', minItems: 1, items: ring };

/**
 * An area as the APIs take it (ordering's delivery zones, provider-delivery's service areas): a
 * GeoJSON Polygon or MultiPolygon. What a schema cannot say (closed rings, latitudes within ±90,
 * at most 10,000 positions) `areaGeometryProblem` of @marketplace/geo checks, with the same answer.
 */
export const areaGeometry = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', 'coordinates'],
  description:
    `${description} GeoJSON Polygon or MultiPolygon ([longitude, latitude] positions, latitude -90 to 90, at most ` +
    '10,000 positions in all; each ring closed: its last position equals its first).',
  properties: {
    type: { type: 'string', enum: ['Polygon', 'MultiPolygon'] },
    coordinates: { type: 'array', minItems: 1 },
    bbox: { type: 'array', items: { type: 'number' } },
  },
  // The depth of `coordinates` follows the type.
  if: { properties: { type: { const: 'Polygon' } } },
  then: { properties: { coordinates: polygon } },
  else: { properties: { coordinates: { type: 'array', minItems: 1, items: polygon } } },
});
