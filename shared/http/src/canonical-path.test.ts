import { nonCanonicalPath } from './canonical-path';

describe('canonical request paths', () => {
  it.each([
    '/',
    '/healthz',
    '/api/partner/v1/orders',
    '/api/partner/v1/orders/3f1c2a4e-0000-4000-8000-000000000000/cancel',
    '/v1/deliveries',
    '/admin/v1/platform-accounts/',
    '/track/abc.def-ghi_1',
    '/docs/assets/site.css',
    '/a/b;param',
    '/a/%20b',
  ])('accepts %s', (path) => {
    expect(nonCanonicalPath(path)).toBeUndefined();
  });

  it.each([
    ['/api/tenant/v1/webhooks/../../admin', 'dot segment'],
    ['/api/tenant/v1/webhooks/x/../installations', 'dot segment'],
    ['/api/./partner', 'dot segment'],
    ['/api/partner/..', 'dot segment'],
    ['/api/partner/.', 'dot segment'],
    ['/api/tenant/v1/webhooks/%2e%2e/%2E%2E/admin', 'encoded'],
    ['/api/tenant/v1/webhooks/.%2e/admin', 'encoded'],
    ['/api/tenant/v1/webhooks%2f..%2fadmin', 'encoded'],
    ['/api/tenant/v1/webhooks%2F..%2Fadmin', 'encoded'],
    ['/api/tenant/v1/webhooks%5c..%5cadmin', 'encoded'],
    ['/api/tenant/v1/webhooks%00', 'encoded'],
    ['/api/tenant/v1/webhooks\\..\\admin', 'backslash'],
    ['//admin/v1/platform-accounts', 'empty segment'],
    ['/admin//v1/platform-accounts', 'empty segment'],
    ['admin/v1', 'start'],
    ['', 'start'],
  ])('refuses %s (%s)', (path, why) => {
    expect(nonCanonicalPath(path)).toContain(why);
  });
});
