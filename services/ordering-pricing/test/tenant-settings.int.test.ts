import { randomUUID } from 'node:crypto';
import {
  MITTE_SQUARE,
  restaurant,
  startOrderingCluster,
  type OrderingCluster,
  type Restaurant,
} from './support/cluster';

// The tenant API of ordering (through the gateway): delivery zones, promotions, the service fee.
let cluster: OrderingCluster;
let r: Restaurant;
let stranger: Restaurant;

beforeAll(async () => {
  cluster = await startOrderingCluster();
  [r, stranger] = await Promise.all([restaurant(cluster), restaurant(cluster)]);
}, 180_000);
afterAll(async () => cluster?.stop());

describe('delivery zones', () => {
  it('are created, read, listed by branch, replaced and deleted; money in major units', async () => {
    const created = await r.manage('POST', '/delivery-zones', {
      branchId: r.menu.branchId,
      name: 'Mitte',
      geometry: MITTE_SQUARE,
      fee: 2.5,
      minimumOrder: 12.3,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      branchId: r.menu.branchId,
      name: 'Mitte',
      geometry: MITTE_SQUARE,
      isActive: true,
      fee: 2.5,
      minimumOrder: 12.3,
      currencyCode: 'EUR',
    });
    const id = created.body.id;
    expect((await r.manage('GET', `/delivery-zones/${id}`)).body).toEqual(created.body);
    expect((await r.manage('GET', `/delivery-zones?branchId=${r.menu.otherBranchId}`)).body).toEqual([]);
    const replaced = await r.manage('PUT', `/delivery-zones/${id}`, {
      branchId: r.menu.branchId,
      name: 'Mitte (closed)',
      geometry: MITTE_SQUARE,
      fee: 3,
      isActive: false,
    });
    expect(replaced.body).toMatchObject({
      name: 'Mitte (closed)',
      fee: 3,
      isActive: false,
      minimumOrder: null,
      createdAt: created.body.createdAt,
    });
    expect((await r.manage('DELETE', `/delivery-zones/${id}`)).status).toBe(204);
    expect((await r.manage('GET', `/delivery-zones/${id}`)).status).toBe(404);
  });

  it('refuse bad geometry, money with too many decimals and a branch the restaurant does not have', async () => {
    const res = await r.manage('POST', '/delivery-zones', {
      branchId: stranger.menu.branchId,
      name: 'Bad',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [13.38, 52.52],
            [13.42, 52.52],
            [13.42, 52.54],
            [13.4, 52.54],
          ],
        ],
      },
      fee: 2.555,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['branchId', 'fee', 'geometry']);
    // A ring of three positions is refused by the schema, at its place.
    const short = await r.manage('POST', '/delivery-zones', {
      branchId: r.menu.branchId,
      name: 'Short',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      fee: 1,
    });
    expect(Object.keys(short.body.errors)).toEqual(['geometry.coordinates[0]']);
    const open = await r.manage('POST', '/delivery-zones', {
      branchId: r.menu.branchId,
      name: 'Open ring',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
      fee: 1,
    });
    expect(open.body.errors.geometry).toEqual(['each ring must be closed (first and last positions equal)']);
  });

  it('of another tenant are not found', async () => {
    const theirs = await stranger.manage('POST', '/delivery-zones', {
      branchId: stranger.menu.branchId,
      name: 'Theirs',
      geometry: MITTE_SQUARE,
      fee: 1,
    });
    for (const [method, body] of [
      ['GET'],
      ['PUT', { branchId: r.menu.branchId, name: 'x', geometry: MITTE_SQUARE, fee: 1 }],
      ['DELETE'],
    ] as const) {
      expect((await r.manage(method, `/delivery-zones/${theirs.body.id}`, body)).status).toBe(404);
    }
    expect((await stranger.manage('GET', `/delivery-zones/${theirs.body.id}`)).status).toBe(200);
  });
});

describe('promotions', () => {
  it('are created with a code unique per restaurant (case-insensitive), read, replaced and deleted, which frees the code', async () => {
    const created = await r.manage('POST', '/promotions', {
      code: 'Spring5',
      type: 'fixed',
      amount: 5,
      minimumSubtotal: 20,
      usageLimit: 3,
      branchIds: [r.menu.branchId],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'SPRING5',
      type: 'fixed',
      amount: 5,
      percent: null,
      minimumSubtotal: 20,
      usageLimit: 3,
      timesUsed: 0,
      isActive: true,
    });
    expect((await r.manage('POST', '/promotions', { code: 'spring5', type: 'percentage', percent: 5 })).status).toBe(
      409,
    );
    expect(
      (await stranger.manage('POST', '/promotions', { code: 'SPRING5', type: 'percentage', percent: 5 })).status,
    ).toBe(201);
    const updated = await r.manage('PUT', `/promotions/${created.body.id}`, {
      code: 'SPRING5',
      type: 'percentage',
      percent: 12.5,
      isActive: false,
    });
    expect(updated.body).toMatchObject({
      type: 'percentage',
      percent: 12.5,
      amount: null,
      isActive: false,
      usageLimit: null,
    });
    expect(
      (await r.manage('PUT', `/promotions/${created.body.id}`, { code: 'OTHER', type: 'percentage', percent: 1 })).body
        .errors.code,
    ).toBeDefined();
    expect((await r.manage('DELETE', `/promotions/${created.body.id}`)).status).toBe(204);
    expect((await r.manage('POST', '/promotions', { code: 'SPRING5', type: 'percentage', percent: 5 })).status).toBe(
      201,
    );
  });

  it.each([
    [{ type: 'percentage', percent: 0 }, 'percent'],
    [{ type: 'percentage', percent: 100.5 }, 'percent'],
    [{ type: 'percentage', percent: 10.123 }, 'percent'],
    [{ type: 'fixed', amount: 0 }, 'amount'],
    [{ type: 'fixed', amount: 1, percent: 5 }, 'percent'],
    [{ type: 'fixed', amount: 1, validFrom: '2026-05-01T00:00:00Z', validUntil: '2026-04-01T00:00:00Z' }, 'validUntil'],
    [{ type: 'fixed', amount: 1, code: 'has space' }, 'code'],
  ])('refuses %j (400 on %s)', async (body, field) => {
    const res = await r.manage('POST', '/promotions', { code: `C${randomUUID().slice(0, 8)}`, ...body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('of another tenant are not found', async () => {
    const theirs = await stranger.manage('POST', '/promotions', { code: 'THEIRS', type: 'fixed', amount: 1 });
    expect((await r.manage('GET', `/promotions/${theirs.body.id}`)).status).toBe(404);
    expect((await r.manage('DELETE', `/promotions/${theirs.body.id}`)).status).toBe(404);
    expect((await r.manage('GET', '/promotions')).body.map((p: any) => p.code)).not.toContain('THEIRS');
  });
});

describe('service fee', () => {
  it('is none until set, then a fixed amount plus a percentage, per tenant', async () => {
    expect((await r.manage('GET', '/service-fee')).body).toEqual({ currencyCode: 'EUR', fixed: 0, percent: 0 });
    expect((await r.manage('PUT', '/service-fee', { fixed: 0.99, percent: 2.5 })).body).toEqual({
      currencyCode: 'EUR',
      fixed: 0.99,
      percent: 2.5,
    });
    expect((await r.manage('GET', '/service-fee')).body.fixed).toBe(0.99);
    expect((await stranger.manage('GET', '/service-fee')).body.fixed).toBe(0);
    const bad = await r.manage('PUT', '/service-fee', { fixed: 0.999, percent: 2.555 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['fixed', 'percent']);
  });
});
