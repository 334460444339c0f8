// Seed step: what ordering needs for demo orders, through the tenant API: a delivery zone around
// "Demo Bistro Mitte" (a square about 2.2 km across, fee 2.50, minimum order 10.00), a service fee
// (0.49 per order) and the promotion code DEMO10 (10 % off from a 15.00 subtotal). Idempotent: the
// zone is found by name and the promotion by code, then replaced. Adds `deliveryZones` (with a
// point inside and one outside each zone) and `promotionCode` to the fixture.

const API = '/api/tenant/v1';
const ZONE_NAME = 'Mitte delivery area';
const PROMOTION = {
  code: 'DEMO10',
  description: 'Demo: 10 % off from 15.00',
  type: 'percentage',
  percent: 10,
  minimumSubtotal: 15,
};
/** Ordering learns of new branches from the catalog's events: a fresh branch may take a moment to arrive. */
const BRANCH_WAIT_MS = 20_000;

/** A square of ±0.01° around the branch (about 2.2 km north to south at Berlin's latitude). */
function squareAround({ latitude, longitude }, d = 0.01) {
  const ring = [
    [longitude - d, latitude - d],
    [longitude + d, latitude - d],
    [longitude + d, latitude + d],
    [longitude - d, latitude + d],
    [longitude - d, latitude - d],
  ];
  return { type: 'Polygon', coordinates: [ring.map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))])] };
}

async function saveZone(tenant, existing, body) {
  const deadline = Date.now() + BRANCH_WAIT_MS;
  for (;;) {
    const res = existing
      ? await tenant.request('PUT', `${API}/delivery-zones/${existing.id}`, body)
      : await tenant.request('POST', `${API}/delivery-zones`, body);
    if (res.status === 200 || res.status === 201) return res.body;
    const branchNotKnownYet = res.status === 400 && res.body?.errors?.branchId;
    if (!branchNotKnownYet || Date.now() > deadline)
      return tenant.call(
        existing ? 'PUT' : 'POST',
        existing ? `${API}/delivery-zones/${existing.id}` : `${API}/delivery-zones`,
        body,
        [200, 201],
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const orderingStep = {
  name: 'ordering',
  async run(ctx) {
    const tenant = ctx.tenant;
    const mitte = ctx.fixture.branches?.find((b) => b.name === 'Demo Bistro Mitte');
    if (!mitte) throw new Error('the catalog step must run before the ordering step');
    const branch = await tenant.call('GET', `${API}/catalog/branches/${mitte.id}`, undefined, [200]);
    const zones = await tenant.call('GET', `${API}/delivery-zones?branchId=${mitte.id}`, undefined, [200]);
    const zone = await saveZone(
      tenant,
      zones.find((z) => z.name === ZONE_NAME),
      {
        branchId: mitte.id,
        name: ZONE_NAME,
        geometry: squareAround(branch.coordinates),
        isActive: true,
        fee: 2.5,
        minimumOrder: 10,
      },
    );
    await tenant.call('PUT', `${API}/service-fee`, { fixed: 0.49, percent: 0 }, [200]);
    const promotions = await tenant.call('GET', `${API}/promotions`, undefined, [200]);
    const found = promotions.find((p) => p.code === PROMOTION.code);
    if (found) await tenant.call('PUT', `${API}/promotions/${found.id}`, PROMOTION, [200]);
    else await tenant.call('POST', `${API}/promotions`, PROMOTION, [201]);

    const { latitude, longitude } = branch.coordinates;
    ctx.report(
      `ordering: delivery zone "${ZONE_NAME}" (fee 2.50, minimum 10.00), service fee 0.49, promotion ${PROMOTION.code}`,
    );
    return {
      deliveryZones: [
        {
          id: zone.id,
          branchId: mitte.id,
          inside: { latitude, longitude },
          outside: { latitude: latitude + 0.05, longitude: longitude + 0.05 },
        },
      ],
      promotionCode: PROMOTION.code,
    };
  },
};
