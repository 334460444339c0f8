/**
 * Areas (ordering's delivery zones, provider-delivery's service areas) are GeoJSON (RFC 7946)
 * Polygons or MultiPolygons, positions [longitude, latitude].
 * Containment is planar in degrees, which is what RFC 7946 means by an edge (a straight line in
 * longitude/latitude); over the few kilometres of a city zone it is also within metres of the
 * geodesic, far below geocoding accuracy. Areas crossing the antimeridian are not supported. A point
 * on a boundary (edge or vertex) counts as inside, also on a hole's boundary: a customer exactly on
 * the line is served.
 */
export type Position = [number, number];
export type AreaGeometry =
  { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };

/** Largest number of positions accepted in one geometry (all rings together). */
export const MAX_AREA_POSITIONS = 10_000;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Why the value is not an acceptable area geometry (a short sentence), or undefined when it is.
 * Ring orientation is not checked: RFC 7946 makes the right-hand rule optional and the even-odd test
 * does not depend on it. Self-intersection is not checked either (even-odd gives it a defined meaning).
 */
export function areaGeometryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be a GeoJSON Polygon or MultiPolygon';
  const { type, coordinates, ...rest } = value as { type?: unknown; coordinates?: unknown };
  if (Object.keys(rest).some((k) => k !== 'bbox')) return 'must have only the members type and coordinates';
  if (type !== 'Polygon' && type !== 'MultiPolygon') return 'must be a GeoJSON Polygon or MultiPolygon';
  if (!Array.isArray(coordinates) || coordinates.length === 0) return 'must have coordinates';
  const polygons: unknown[] = type === 'Polygon' ? [coordinates] : coordinates;
  let positions = 0;
  for (const polygon of polygons) {
    if (!Array.isArray(polygon) || polygon.length === 0) return 'each polygon must have at least one ring';
    for (const ring of polygon) {
      if (!Array.isArray(ring) || ring.length < 4) return 'each ring must have at least 4 positions';
      // Counted before the positions are looked at, so an oversized input is refused cheaply.
      positions += ring.length;
      if (positions > MAX_AREA_POSITIONS) return `must have at most ${MAX_AREA_POSITIONS} positions`;
      for (const p of ring) {
        // RFC 7946 allows a third number (altitude); it is tolerated and ignored.
        if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every(isNumber))
          return 'each position must be [longitude, latitude]';
        const [lon, lat] = p as [number, number];
        if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
          return 'positions must have longitude -180 to 180 and latitude -90 to 90';
      }
      const [first, last] = [ring[0] as number[], ring[ring.length - 1] as number[]];
      if (first[0] !== last[0] || first[1] !== last[1])
        return 'each ring must be closed (first and last positions equal)';
    }
  }
  return undefined;
}

type Where = 'inside' | 'outside' | 'boundary';

/**
 * Even-odd ray casting to the east. Each edge covers a half-open latitude span, so a ray through a
 * vertex counts it once and horizontal (or repeated-position) edges never. One cross product decides
 * both whether the point is on the edge (zero, within the edge's bounding box) and on which side of
 * it the point lies, so the two answers cannot contradict each other. No epsilon: the test is exact
 * whenever the products are exact (axis-parallel edges, integers); for a general decimal point on a
 * slanted edge rounding may put it a hair inside or outside, which is indistinguishable in practice.
 */
function locate(ring: readonly Position[], x: number, y: number): Where {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    const cross = (xi - xj) * (y - yj) - (yi - yj) * (x - xj);
    if (cross === 0 && x >= Math.min(xi, xj) && x <= Math.max(xi, xj) && y >= Math.min(yi, yj) && y <= Math.max(yi, yj))
      return 'boundary';
    // cross > 0: the point is left of j→i. The eastward ray meets the edge when the point is west of
    // it, which is left of a northbound edge and right of a southbound one.
    if (yi > y !== yj > y && cross > 0 === yi > yj) inside = !inside;
  }
  return inside ? 'inside' : 'outside';
}

/** Whether the point lies in the zone: inside an outer ring (or on it) and not strictly inside a hole. */
export function areaContains(geometry: AreaGeometry, point: { latitude: number; longitude: number }): boolean {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const { longitude: x, latitude: y } = point;
  return polygons.some(
    ([outer, ...holes]) =>
      outer !== undefined &&
      locate(outer, x, y) !== 'outside' &&
      holes.every((hole) => locate(hole, x, y) !== 'inside'),
  );
}
