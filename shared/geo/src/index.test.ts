import { MAX_AREA_POSITIONS, areaContains, areaGeometryProblem, type Position, type AreaGeometry } from './index';

const polygon = (...rings: Position[][]): AreaGeometry => ({ type: 'Polygon', coordinates: rings });
const at = (longitude: number, latitude: number) => ({ longitude, latitude });
// A square around Berlin Mitte, counter-clockwise, and the same clockwise.
const square: Position[] = [
  [13.38, 52.52],
  [13.42, 52.52],
  [13.42, 52.54],
  [13.38, 52.54],
  [13.38, 52.52],
];
const clockwise = [...square].reverse();
// A U open to the north: the notch (x 1..2, y 1..3) is outside.
const u: Position[] = [
  [0, 0],
  [3, 0],
  [3, 3],
  [2, 3],
  [2, 1],
  [1, 1],
  [1, 3],
  [0, 3],
  [0, 0],
];
// A diamond: every vertex is an apex a horizontal ray can pass through, every edge is slanted.
const diamond: Position[] = [
  [0, -2],
  [2, 0],
  [0, 2],
  [-2, 0],
  [0, -2],
];
// An M: peaks at x 0, 2 and 4, notches down to reflex vertices at (1, 2) and (3, 2).
const m: Position[] = [
  [0, 0],
  [4, 0],
  [4, 4],
  [3, 2],
  [2, 4],
  [1, 2],
  [0, 4],
  [0, 0],
];

describe('areaContains', () => {
  it.each([
    ['the centre', square, at(13.4, 52.53), true],
    ['east of it', square, at(13.43, 52.53), false],
    ['north of it', square, at(13.4, 52.55), false],
    ['west of it, ray through the whole square', square, at(13.37, 52.53), false],
    ['on an edge', square, at(13.4, 52.52), true],
    ['on a vertical edge', square, at(13.38, 52.53), true],
    ['north, on the line of a vertical edge', square, at(13.38, 52.55), false],
    ['west, on the line of a horizontal edge', square, at(13.37, 52.52), false],
    ['on a vertex', square, at(13.42, 52.54), true],
    ['clockwise ring, centre', clockwise, at(13.4, 52.53), true],
    ['clockwise ring, outside', clockwise, at(13.37, 52.53), false],
    ['clockwise ring, on a vertex', clockwise, at(13.38, 52.52), true],
    ['in the U’s left arm', u, at(0.5, 2), true],
    ['in the U’s notch', u, at(1.5, 2), false],
    ['in the U’s base', u, at(1.5, 0.5), true],
    ['right of the U', u, at(3.5, 2), false],
    ['on the notch’s floor', u, at(1.5, 1), true],
    ['on the notch’s inner wall', u, at(2, 2), true],
    ['level with the notch floor, ray through two vertices', u, at(0.5, 1), true],
    ['left of the U level with the notch floor', u, at(-1, 1), false],
    ['level with the top, ray along horizontal edges', u, at(-1, 3), false],
    ['on the top edge of the right arm', u, at(2.5, 3), true],
    ['below the U, ray through the bottom vertex', u, at(-1, 0), false],
    ['the diamond’s centre, ray through the east apex', diamond, at(0, 0), true],
    ['west of the diamond, ray through two apexes', diamond, at(-3, 0), false],
    ['level with the north apex', diamond, at(-1, 2), false],
    ['on the north apex', diamond, at(0, 2), true],
    ['on a slanted edge', diamond, at(1, 1), true],
    ['just outside a slanted edge', diamond, at(1.001, 1), false],
    ['just inside a slanted edge', diamond, at(0.999, 1), true],
    ['in the M, ray through both reflex vertices', m, at(0.5, 2), true],
    ['in the M’s middle, ray through one reflex vertex', m, at(2, 2), true],
    ['on a reflex vertex', m, at(3, 2), true],
    ['above the M’s middle peak', m, at(2, 4.5), false],
    ['in the M’s left notch', m, at(1, 3.5), false],
  ])('%s', (_name, ring, point, expected) => {
    expect(areaContains(polygon(ring), point)).toBe(expected);
  });

  describe('a polygon with a hole (around Berlin Mitte)', () => {
    const outer = square;
    const hole: Position[] = [
      [13.39, 52.525],
      [13.41, 52.525],
      [13.41, 52.535],
      [13.39, 52.535],
      [13.39, 52.525],
    ];
    it.each([
      ['between the outer ring and the hole', at(13.385, 52.53), true],
      ['inside the hole', at(13.4, 52.53), false],
      ['on the hole’s edge', at(13.4, 52.525), true],
      ['on the hole’s vertex', at(13.41, 52.535), true],
      ['outside the outer ring', at(13.43, 52.53), false],
    ])('%s', (_name, point, expected) => {
      expect(areaContains(polygon(outer, hole), point)).toBe(expected);
      // Orientation of either ring does not matter.
      expect(areaContains(polygon([...outer].reverse(), hole), point)).toBe(expected);
      expect(areaContains(polygon(outer, [...hole].reverse()), point)).toBe(expected);
    });
  });

  it('accepts a point in any polygon of a MultiPolygon', () => {
    const multi: AreaGeometry = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
        [
          [
            [5, 5],
            [6, 5],
            [6, 6],
            [5, 6],
            [5, 5],
          ],
        ],
      ],
    };
    expect(areaContains(multi, at(5.5, 5.5))).toBe(true);
    expect(areaContains(multi, at(0.5, 0.5))).toBe(true);
    expect(areaContains(multi, at(6, 5.5))).toBe(true);
    expect(areaContains(multi, at(3, 3))).toBe(false);
    expect(areaContains(multi, at(3, 0.5))).toBe(false);
  });

  it('survives repeated positions', () => {
    const repeated: Position[] = [
      [0, 0],
      [0, 0],
      [2, 0],
      [2, 2],
      [2, 2],
      [2, 2],
      [0, 2],
      [0, 0],
    ];
    expect(areaContains(polygon(repeated), at(1, 1))).toBe(true);
    expect(areaContains(polygon(repeated), at(1, 2))).toBe(true);
    expect(areaContains(polygon(repeated), at(-1, 2))).toBe(false);
    expect(areaContains(polygon(repeated), at(3, 1))).toBe(false);
  });
});

describe('areaGeometryProblem', () => {
  const hole: Position[] = [
    [13.39, 52.525],
    [13.41, 52.525],
    [13.41, 52.535],
    [13.39, 52.535],
    [13.39, 52.525],
  ];
  const closedRing = (...ps: Position[]): Position[] => [...ps, ps[0]!];

  it.each([
    ['a Polygon', polygon(square)],
    ['a clockwise Polygon', polygon(clockwise)],
    ['a Polygon with a hole', polygon(square, hole)],
    [
      'a MultiPolygon with a bbox',
      { type: 'MultiPolygon', coordinates: [[square], [clockwise, hole]], bbox: [13.38, 52.52, 13.42, 52.54] },
    ],
    ['positions with an altitude', polygon(square.map(([x, y]) => [x, y, 34] as unknown as Position))],
    ['the extreme longitudes and latitudes', polygon(closedRing([-180, -90], [180, -90], [180, 90], [-180, 90]))],
    [
      'exactly MAX_AREA_POSITIONS positions',
      polygon(closedRing(...Array.from({ length: MAX_AREA_POSITIONS - 1 }, (_, i) => [i / 1e4, i % 2] as Position))),
    ],
  ])('accepts %s', (_name, value) => {
    expect(areaGeometryProblem(value)).toBeUndefined();
  });

  const withFirst = (p: unknown) => polygon([p as Position, ...square.slice(1, -1), p as Position]);
  it.each([
    ['not an object', 'x', 'must be a GeoJSON Polygon or MultiPolygon'],
    ['null', null, 'must be a GeoJSON Polygon or MultiPolygon'],
    ['an array', [square], 'must be a GeoJSON Polygon or MultiPolygon'],
    ['a Point', { type: 'Point', coordinates: [13.4, 52.5] }, 'must be a GeoJSON Polygon or MultiPolygon'],
    ['a Feature', { type: 'Feature', geometry: polygon(square) }, 'must have only the members type and coordinates'],
    ['no type', { coordinates: [square] }, 'must be a GeoJSON Polygon or MultiPolygon'],
    ['an extra member', { ...polygon(square), properties: {} }, 'must have only the members type and coordinates'],
    ['no coordinates', { type: 'Polygon' }, 'must have coordinates'],
    ['coordinates that are not an array', { type: 'Polygon', coordinates: 'x' }, 'must have coordinates'],
    ['a Polygon without rings', { type: 'Polygon', coordinates: [] }, 'must have coordinates'],
    ['a MultiPolygon without polygons', { type: 'MultiPolygon', coordinates: [] }, 'must have coordinates'],
    [
      'an empty polygon in a MultiPolygon',
      { type: 'MultiPolygon', coordinates: [[square], []] },
      'each polygon must have at least one ring',
    ],
    [
      'a Polygon nested as a MultiPolygon',
      { type: 'MultiPolygon', coordinates: [square] },
      'each ring must have at least 4 positions',
    ],
    [
      'a ring of three positions',
      polygon(closedRing([13.38, 52.52], [13.42, 52.52])),
      'each ring must have at least 4 positions',
    ],
    [
      'a ring that is not an array',
      polygon(square, 'x' as unknown as Position[]),
      'each ring must have at least 4 positions',
    ],
    ['an open ring', polygon(square.slice(0, 4)), 'each ring must be closed (first and last positions equal)'],
    [
      'an open hole',
      polygon(square, hole.slice(0, 4).concat([[13.39, 52.53]])),
      'each ring must be closed (first and last positions equal)',
    ],
    [
      'a position of one number',
      polygon([[13.4], ...square.slice(1)] as Position[]),
      'each position must be [longitude, latitude]',
    ],
    ['a position of four numbers', withFirst([13.38, 52.52, 34, 1]), 'each position must be [longitude, latitude]'],
    ['a string coordinate', withFirst(['13.38', 52.52]), 'each position must be [longitude, latitude]'],
    ['a NaN coordinate', withFirst([NaN, 52.52]), 'each position must be [longitude, latitude]'],
    ['an infinite coordinate', withFirst([13.38, Infinity]), 'each position must be [longitude, latitude]'],
    [
      'a position that is an object',
      withFirst({ longitude: 13.38, latitude: 52.52 }),
      'each position must be [longitude, latitude]',
    ],
    [
      'latitude above 90',
      polygon(closedRing([13.4, 91], [13.5, 91], [13.5, 90])),
      'positions must have longitude -180 to 180 and latitude -90 to 90',
    ],
    [
      'latitude below -90',
      withFirst([13.38, -90.5]),
      'positions must have longitude -180 to 180 and latitude -90 to 90',
    ],
    [
      'longitude above 180',
      withFirst([180.5, 52.52]),
      'positions must have longitude -180 to 180 and latitude -90 to 90',
    ],
    [
      'longitude below -180',
      withFirst([-181, 52.52]),
      'positions must have longitude -180 to 180 and latitude -90 to 90',
    ],
    [
      'one position too many in one ring',
      polygon(closedRing(...Array.from({ length: MAX_AREA_POSITIONS }, (_, i) => [i / 1e4, i % 2] as Position))),
      `must have at most ${MAX_AREA_POSITIONS} positions`,
    ],
    [
      'too many positions across rings',
      { type: 'MultiPolygon', coordinates: Array.from({ length: MAX_AREA_POSITIONS / 5 + 1 }, () => [square]) },
      `must have at most ${MAX_AREA_POSITIONS} positions`,
    ],
  ])('refuses %s', (_name, value, message) => {
    expect(areaGeometryProblem(value)).toBe(message);
  });
});
