import { PARTNER_EXTENSION_ROUTES } from './partner-extension-routes';
import { hasScope, isMutation, PARTNER_ROUTES, validPathParams } from './partner-routes';

const route = (method: string, pattern: string) =>
  PARTNER_ROUTES.find((r) => r.method === method && r.pattern === pattern)!;

describe('Partner API route table', () => {
  it('has the 13 endpoints of the spec, each with one owner', () => {
    expect(PARTNER_ROUTES).toHaveLength(13);
    expect(new Set(PARTNER_ROUTES.map((r) => `${r.method} ${r.pattern}`)).size).toBe(13);
  });

  it('grants order reads with Orders.Create or Orders.Read and nothing else by either', () => {
    expect(hasScope(route('GET', '/orders/:orderId'), ['Orders.Read'])).toBe(true);
    expect(hasScope(route('GET', '/orders/:orderId'), ['Orders.Create'])).toBe(true);
    expect(hasScope(route('POST', '/orders/:orderId/cancel'), ['Orders.Read'])).toBe(false);
    expect(hasScope(route('POST', '/orders'), ['Orders.Read'])).toBe(false);
  });

  it('grants nothing for the inactive scopes', () => {
    for (const r of PARTNER_ROUTES) expect(hasScope(r, ['Delivery.Read', 'Payments.Read'])).toBe(false);
  });

  it('marks POST and PATCH as mutations and checks uuid parameters', () => {
    expect(PARTNER_ROUTES.filter(isMutation)).toHaveLength(9);
    expect(validPathParams({ orderId: '6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f' })).toBe(true);
    expect(validPathParams({ orderId: '6f1c1f8e2b7a4d1e9c3a0a5b6c7d8e9f' })).toBe(false);
    expect(validPathParams({})).toBe(true);
  });
});

describe('Partner API extension routes (ours)', () => {
  it('are granted to any valid key, and only those marked anyKey', () => {
    expect(PARTNER_EXTENSION_ROUTES).toHaveLength(3);
    for (const r of PARTNER_EXTENSION_ROUTES) {
      expect(r.anyKey).toBe(true);
      expect(hasScope(r, [])).toBe(true);
      expect(hasScope(r, ['Catalog.Read'])).toBe(true);
    }
    for (const r of PARTNER_ROUTES) expect(hasScope(r, [])).toBe(false);
  });
});
