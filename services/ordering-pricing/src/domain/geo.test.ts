import { MAX_ZONE_POSITIONS, zoneContains, zoneGeometryProblem, type Position, type ZoneGeometry } from './geo';

const polygon = (...rings: Position[][]): ZoneGeometry => ({ type: 'Polygon', coordinates: rings });
const at = (longitude: number, latitude: number) => ({ longitude, latitude });
// A square around Berlin Mitte, counter-clockwise, and the same clockwise.
const square: Position[] = [[13.38, 52.52], [13.42, 52.52], [13.42, 52.54], [13.38, 52.54], [13.38, 52.52]];
const clockwise = [...square].reverse();
// A U open to the north: the notch (x 1..2, y 1..3) is outside.
const u: Position[] = [[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3], [0, 0]];

describe('zoneContains', () => {
  it.each([
    ['the centre', square, at(13.4, 52.53), true],
    ['east of it', square, at(13.43, 52.53), false],
    ['north of it', square, at(13.4, 52.55), false],
    ['on an edge', square, at(13.4, 52.52), true],
    ['on a vertex', square, at(13.42, 52.54), true],
    ['clockwise ring, centre', clockwise, at(13.4, 52.53), true],
    ['clockwise ring, outside', clockwise, at(13.37, 52.53), false],
    ['in the U’s left arm', u, at(0.5, 2), true],
    ['in the U’s notch', u, at(1.5, 2), false],
    ['on the notch’s floor', u, at(1.5, 1), true],
    ['level with the notch floor, ray through two vertices', u, at(0.5, 1), true],
    ['level with the top, ray along horizontal edges', u, at(-1, 3), false],
    ['on the top edge of the right arm', u, at(2.5, 3), true],
    ['below the U, ray through the bottom vertex', u, at(-1, 0), false],
  ])('%s', (_name, ring, point, expected) => {
    expect(zoneContains(polygon(ring as Position[]), point)).toBe(expected);
  });

  it('treats holes as outside, their edges as inside', () => {
    const hole: Position[] = [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]];
    const donut = polygon([[0, 0], [3, 0], [3, 3], [0, 3], [0, 0]], hole);
    expect(zoneContains(donut, at(1.5, 1.5))).toBe(false);
    expect(zoneContains(donut, at(1, 1.5))).toBe(true);
    expect(zoneContains(donut, at(0.5, 0.5))).toBe(true);
  });

  it('accepts a point in any polygon of a MultiPolygon', () => {
    const multi: ZoneGeometry = { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 6], [5, 5]]]] };
    expect(zoneContains(multi, at(5.5, 5.5))).toBe(true);
    expect(zoneContains(multi, at(3, 3))).toBe(false);
  });

  it('survives repeated positions', () => {
    const repeated: Position[] = [[0, 0], [0, 0], [2, 0], [2, 2], [2, 2], [0, 2], [0, 0]];
    expect(zoneContains(polygon(repeated), at(1, 1))).toBe(true);
    expect(zoneContains(polygon(repeated), at(3, 1))).toBe(false);
  });
});

describe('zoneGeometryProblem', () => {
  it('accepts a Polygon, a Polygon with a hole, a MultiPolygon, altitudes and a bbox', () => {
    expect(zoneGeometryProblem(polygon(square))).toBeUndefined();
    expect(zoneGeometryProblem({ type: 'MultiPolygon', coordinates: [[square], [clockwise]], bbox: [13.38, 52.52, 13.42, 52.54] })).toBeUndefined();
    expect(zoneGeometryProblem(polygon(square.map(([x, y]) => [x, y, 34] as unknown as Position)))).toBeUndefined();
  });

  it.each([
    ['not an object', 'x', 'must be a GeoJSON Polygon or MultiPolygon'],
    ['a Point', { type: 'Point', coordinates: [13.4, 52.5] }, 'must be a GeoJSON Polygon or MultiPolygon'],
    ['an extra member', { ...polygon(square), properties: {} }, 'must have only the members type and coordinates'],
    ['no rings', { type: 'Polygon', coordinates: [] }, 'must have coordinates'],
    ['an empty polygon in a MultiPolygon', { type: 'MultiPolygon', coordinates: [[]] }, 'each polygon must have at least one ring'],
    ['a ring of three positions', polygon(square.slice(0, 3)), 'each ring must have at least 4 positions'],
    ['an open ring', polygon(square.slice(0, 4)), 'each ring must be closed (first and last positions equal)'],
    ['a position of one number', polygon([[13.4], ...square.slice(1)] as Position[]), 'each position must be [longitude, latitude]'],
    ['a string coordinate', polygon([['13.4', 52.5], ...square.slice(1)] as unknown as Position[]), 'each position must be [longitude, latitude]'],
    ['latitude out of range', polygon([[13.4, 91], [13.5, 91], [13.5, 90], [13.4, 91]]), 'positions must have longitude -180 to 180 and latitude -90 to 90'],
    ['too many positions', polygon([...Array.from({ length: MAX_ZONE_POSITIONS }, (_, i) => [i / 1e4, 0] as Position), [0, 0]]), `must have at most ${MAX_ZONE_POSITIONS} positions`],
  ])('refuses %s', (_name, value, message) => {
    expect(zoneGeometryProblem(value)).toBe(message);
  });
});
