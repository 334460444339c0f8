// Seed step: the demo tenant (found by slug or created) and a tenant token for its API.
import { HttpError } from '../lib/api.mjs';

export const DEMO_TENANT = { slug: 'demo-bistro', name: 'Demo Bistro', currencyCode: 'EUR', defaultLanguage: 'en' };
const TOKEN_TTL_SECONDS = 30 * 24 * 3600;

async function ensureTenant(admin) {
  const path = `/api/admin/v1/tenants?slug=${encodeURIComponent(DEMO_TENANT.slug)}`;
  // Matched here too: the list is the whole list when the gateway ignores the filter.
  const find = async () => (await admin.call('GET', path)).find((t) => t.slug === DEMO_TENANT.slug);
  const found = await find();
  if (found) return { tenant: found, created: false };
  const res = await admin.request('POST', '/api/admin/v1/tenants', DEMO_TENANT);
  if (res.status === 201) return { tenant: res.body, created: true };
  if (res.status === 409 && res.body?.code === 'marketplace.tenant.slug_taken') {
    const again = await find(); // created by a concurrent run
    if (again) return { tenant: again, created: false };
  }
  throw new HttpError('POST', '/api/admin/v1/tenants', res.status, res.body);
}

export const tenantStep = {
  name: 'tenant',
  async run(ctx) {
    const { tenant, created } = await ensureTenant(ctx.admin);
    // Tenants cannot be edited through the API: an existing one keeps its settings.
    const differs = ['name', 'currencyCode', 'defaultLanguage'].filter((field) => tenant[field] !== DEMO_TENANT[field]);
    if (differs.length > 0)
      ctx.warn(`tenant ${DEMO_TENANT.slug} exists with other ${differs.join(', ')}; kept as it is`);
    const token = await ctx.admin.call(
      'POST',
      `/api/admin/v1/tenants/${tenant.id}/tokens`,
      { expiresInSeconds: TOKEN_TTL_SECONDS },
      [201],
    );
    ctx.report(
      `tenant ${DEMO_TENANT.slug}: ${tenant.id}${created ? ' (created)' : ''}, token valid until ${token.expiresAt}`,
    );
    return {
      tenantId: tenant.id,
      tenantSlug: tenant.slug,
      tenantApi: { baseUrl: `${ctx.gatewayUrl}/api/tenant/v1`, token: token.token, expiresAt: token.expiresAt },
    };
  },
};
