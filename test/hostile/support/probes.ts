import { randomUUID } from 'node:crypto';
import { pickupOrder, selectionId } from '@marketplace/testing';
import { send, type HostileCluster } from './cluster';
import { INSIDE, MITTE_SQUARE, type Installation, type PlatformOwner, type TenantOwner } from './owners';
import type { ApiName } from './operations';
import type { Caller, Probe } from './probe';

/*
 * The probes: for every operation whose path names an owned resource, the other owner's call with
 * the first owner's identifier; and the body and query identifiers that name owned resources.
 * Reads come first, then changes, then deletions: were one to leak, the later ones would still
 * meet the resources as they were made.
 */

export interface Owners {
  a: TenantOwner;
  b: TenantOwner;
  pa: PlatformOwner;
  pb: PlatformOwner;
}

const partnerCaller =
  (installation: Installation): Caller =>
  (method, url, body) =>
    send(
      url,
      method,
      `ApiKey ${installation.apiKey}`,
      body,
      method === 'GET' ? {} : { 'idempotency-key': randomUUID() },
    );
const bearer =
  (token: string): Caller =>
  (method, url, body) =>
    send(url, method, `Bearer ${token}`, body);

/** Operations with a path id that no probe calls on purpose, each with the reason. */
export const NOT_OWNER_SCOPED: Record<string, string> = {
  ...Object.fromEntries(
    [
      'GET /api/admin/v1/tenants/{tenantId}',
      'POST /api/admin/v1/tenants/{tenantId}/tokens',
      'GET /api/admin/v1/tenants/{tenantId}/tokens',
      'POST /api/admin/v1/tenants/{tenantId}/tokens/{tokenId}/revoke',
      'GET /api/admin/v1/apps/{appId}',
      'POST /api/admin/v1/apps/{appId}/versions',
      'GET /api/admin/v1/apps/{appId}/versions/{version}',
      'PUT /api/admin/v1/apps/{appId}/versions/{version}',
      'POST /api/admin/v1/apps/{appId}/versions/{version}/publish',
    ].map((op) => [
      `marketplace ${op}`,
      'the platform administrator manages every tenant and app: there is no other owner to be',
    ]),
  ),
  ...Object.fromEntries(
    [
      'GET /admin/v1/platform-accounts/{accountId}',
      'PATCH /admin/v1/platform-accounts/{accountId}',
      'POST /admin/v1/platform-accounts/{accountId}/api-keys',
      'GET /admin/v1/platform-accounts/{accountId}/api-keys',
      'POST /admin/v1/platform-accounts/{accountId}/api-keys/rotate',
      'POST /admin/v1/platform-accounts/{accountId}/webhook-secret/rotate',
      'POST /admin/v1/platform-accounts/{accountId}/drivers',
      'GET /admin/v1/platform-accounts/{accountId}/drivers',
    ].map((op) => [
      `provider-admin ${op}`,
      "provider-delivery's operators manage every platform account: the account id is the owner itself",
    ]),
  ),
  'marketplace POST /api/payments/v1/tenants/{tenantId}/notifications':
    "the tenant id names whose processor secret must sign: another tenant's secret, an unknown tenant and a wrong signature are the same 401 (services/ordering-pricing/test/payments.int.test.ts)",
  ...Object.fromEntries(
    [
      'GET /api/admin/v1/provider-connections/{connectionId}/scorecard',
      'PUT /api/admin/v1/provider-connections/{connectionId}/credentials',
      'POST /api/admin/v1/provider-connections/{connectionId}/certifications',
      'POST /api/admin/v1/provider-connections/{connectionId}/capabilities',
    ].map((op) => [
      `tenant-provider-connections ${op}`,
      'the platform administrator sees any connection by design (it decides their capabilities): there is no other owner to be',
    ]),
  ),
  'tenant-provider-connections POST /api/provider-callbacks/v1/{token}':
    "the URL's token is the capability (served by delivery-assignment itself, not the gateway): an unknown token is 404 callback.unknown, signed right or not (services/delivery-assignment/test/platform-duties.int.test.ts)",
  'provider-callbacks-admin GET /admin/v1/provider-callbacks/{deliveryId}':
    "provider-delivery's operators see every account's callbacks",
  'provider-callbacks-admin POST /admin/v1/provider-callbacks/{deliveryId}/redeliver':
    "provider-delivery's operators see every account's callbacks",
};

/**
 * A conformance certificate of the right shape for a connection, signed by no key the marketplace
 * trusts: its owner would get 422 connection.certificate_untrusted, anyone else the 404 before it.
 */
function certificateFor(baseUrl: string, name: string) {
  return {
    kind: 'sdp-conformance-certificate',
    kit: { name: 'sdp-conformance', version: '1.0.0' },
    contract: { version: '1.1.0', revision: '2026-09-19' },
    provider: { baseUrl, name },
    certified: ['core', 'supportsPolling', 'supportsTracking', 'supportsCancellation'],
    finishedAt: new Date().toISOString(),
    reportSha256: 'ab'.repeat(32),
    signature: { algorithm: 'Ed25519', publicKey: 'bm90IGEga2V5', value: 'bm90IGEgc2lnbmF0dXJl' },
  };
}

/** The probes of operations with path ids (the coverage check counts these). */
export function pathProbes(cluster: HostileCluster, { a, b, pa, pb }: Owners): Probe[] {
  const probes: Probe[] = [];
  const add = (
    api: ApiName,
    what: string,
    caller: Caller,
    list: Array<[string, string, Probe['request'], number?]>,
  ) => {
    for (const [op, foreign, request, status] of list)
      probes.push({ api, what, caller, op, foreign, request, ...(status ? { status } : {}) });
  };

  // Partner API, as B1 (another tenant) and as A2 (another installation of A, where the spec
  // scopes by installation: orders by their source, deliveries by their live assignment).
  const eta = () => new Date(Date.now() + 20 * 60_000).toISOString();
  for (const [who, installation] of [
    ["B1 with A1's", b.main],
    ["A2 with A1's", a.second!],
  ] as const) {
    const P = '/api/partner/v1';
    add('partner', `${who} order`, partnerCaller(installation), [
      [`GET ${P}/orders/{orderId}`, a.orderId, (id) => ({ params: { orderId: id } })],
      [`GET ${P}/orders/{orderId}`, a.openOrderId, (id) => ({ params: { orderId: id } })],
      [`POST ${P}/deliveries/{orderId}/accept`, a.orderId, (id) => ({ params: { orderId: id } })],
      [`POST ${P}/deliveries/{orderId}/reject`, a.orderId, (id) => ({ params: { orderId: id } })],
      [`POST ${P}/deliveries/{orderId}/cancel`, a.orderId, (id) => ({ params: { orderId: id } })],
      [
        `PATCH ${P}/deliveries/{orderId}/status`,
        a.orderId,
        (id) => ({ params: { orderId: id }, body: { targetStatus: 4 } }),
      ],
      [
        `PATCH ${P}/deliveries/{orderId}/driver`,
        a.orderId,
        (id) => ({ params: { orderId: id }, body: { driverName: 'Mallory', driverPhone: '+49 170 0000000' } }),
      ],
      [
        `PATCH ${P}/deliveries/{orderId}/eta`,
        a.orderId,
        (id) => ({ params: { orderId: id }, body: { etaUtc: eta() } }),
      ],
      [
        `PATCH ${P}/deliveries/{orderId}/tracking`,
        a.orderId,
        (id) => ({ params: { orderId: id }, body: { trackingUrl: 'https://track.example.com/x' } }),
      ],
      // The open order is Pending and cancellable by its source: a leak would cancel it.
      [`POST ${P}/orders/{orderId}/cancel`, a.openOrderId, (id) => ({ params: { orderId: id } })],
      // Our extension: A1's webhook deliveries are A1's alone (a leak would start a second round).
      [`GET ${P}/webhooks/deliveries/{deliveryId}`, a.webhookDeliveryId, (id) => ({ params: { deliveryId: id } })],
      [
        `POST ${P}/webhooks/deliveries/{deliveryId}/redeliver`,
        a.webhookDeliveryId,
        (id) => ({ params: { deliveryId: id } }),
      ],
    ]);
  }
  // The catalog is the tenant's (every installation of A reads it): only another tenant is probed.
  add('partner', "B1 with A's catalog", partnerCaller(b.main), [
    [
      'GET /api/partner/v1/catalog/branches/{branchId}/products',
      a.menu.branchId,
      (id) => ({ params: { branchId: id } }),
    ],
    [
      'GET /api/partner/v1/catalog/branches/{branchId}/products/{productId}',
      a.menu.branchId,
      (id) => ({ params: { branchId: id, productId: a.menu.pizza.id } }),
    ],
    [
      'GET /api/partner/v1/catalog/branches/{branchId}/products/{productId}',
      a.menu.pizza.id,
      (id) => ({ params: { branchId: b.menu.branchId, productId: id } }),
    ],
  ]);

  // Tenant APIs, as tenant B with tenant A's resources.
  const C = '/api/tenant/v1/catalog';
  const tenantB = bearer(b.token);
  const byId = (id: string) => ({ params: { id } });
  const put = (body: unknown) => (id: string) => ({ params: { id }, body });
  add('tenant-catalog', "tenant B with A's", tenantB, [
    [`GET ${C}/tax-categories/{id}`, a.menu.food7, byId],
    [`PUT ${C}/tax-categories/{id}`, a.menu.food7, put({ name: 'Mine', rate: 5, isInclusive: true })],
    [`GET ${C}/branches/{id}`, a.menu.branchId, byId],
    [`PUT ${C}/branches/{id}`, a.menu.branchId, put({ name: 'Mine', isActive: true })],
    [`GET ${C}/branches/{id}/availability`, a.menu.branchId, byId],
    [`PATCH ${C}/branches/{id}/availability`, a.menu.branchId, put({ products: { [b.menu.cola.id]: 1 } })],
    [`GET ${C}/categories/{id}`, a.categoryId, byId],
    [`PUT ${C}/categories/{id}`, a.categoryId, put({ name: 'Mine' })],
    [`GET ${C}/modifier-groups/{id}`, a.menu.crust.id, byId],
    [
      `PUT ${C}/modifier-groups/{id}`,
      a.menu.crust.id,
      put({ name: 'Mine', minSelections: 0, maxSelections: 1, isRequired: false, options: [{ name: 'O', price: 0 }] }),
    ],
    [`GET ${C}/products/{id}`, a.menu.pizza.id, byId],
    [
      `PUT ${C}/products/{id}`,
      a.menu.cola.id,
      put({
        categoryId: b.categoryId,
        name: 'Mine',
        taxCategoryId: b.menu.drinks19,
        variants: [{ name: 'One', price: 1, isDefault: true }],
      }),
    ],
  ]);
  const T = '/api/tenant/v1';
  add('tenant-orders', "tenant B with A's", tenantB, [
    [`GET ${T}/delivery-zones/{id}`, a.zoneId, byId],
    [
      `PUT ${T}/delivery-zones/{id}`,
      a.zoneId,
      put({ branchId: b.menu.branchId, name: 'Mine', geometry: MITTE_SQUARE, fee: 1 }),
    ],
    [`GET ${T}/promotions/{id}`, a.promotionId, byId],
    [`PUT ${T}/promotions/{id}`, a.promotionId, put({ code: 'MINE', type: 'percentage', percent: 5 })],
    [`GET ${T}/orders/{id}`, a.orderId, byId],
    [`POST ${T}/orders/{id}/accept`, a.openOrderId, byId],
    [`POST ${T}/orders/{id}/reject`, a.openOrderId, byId],
    [`POST ${T}/orders/{id}/complete`, a.orderId, byId],
    [`POST ${T}/orders/{id}/payment`, a.openOrderId, put({ reason: 'mine' })],
    [`POST ${T}/orders/{id}/cancel`, a.openOrderId, byId],
  ]);
  add('tenant-deliveries', "tenant B with A's", tenantB, [
    [`GET ${T}/deliveries/{orderId}`, a.orderId, (id) => ({ params: { orderId: id } })],
    [
      `POST ${T}/deliveries/{orderId}/assign`,
      a.openOrderId,
      (id) => ({ params: { orderId: id }, body: { installationId: b.main.installationId } }),
    ],
  ]);
  add('tenant-webhooks', "tenant B with A's", tenantB, [
    [
      `GET ${T}/webhooks/installations/{installationId}/deliveries`,
      a.main.installationId,
      (id) => ({ params: { installationId: id } }),
    ],
    [
      `POST ${T}/webhooks/installations/{installationId}/test`,
      a.main.installationId,
      (id) => ({ params: { installationId: id } }),
    ],
    [`GET ${T}/webhooks/deliveries/{deliveryId}`, a.webhookDeliveryId, (id) => ({ params: { deliveryId: id } })],
    [
      `POST ${T}/webhooks/deliveries/{deliveryId}/redeliver`,
      a.webhookDeliveryId,
      (id) => ({ params: { deliveryId: id } }),
    ],
  ]);
  const inst = (id: string) => ({ params: { installationId: id } });
  add('marketplace', "tenant B with A's installation", tenantB, [
    [`GET ${T}/installations/{installationId}`, a.main.installationId, inst],
    [`POST ${T}/installations/{installationId}/connect`, a.main.installationId, inst],
    [`POST ${T}/installations/{installationId}/reconnect`, a.main.installationId, inst],
    [`POST ${T}/installations/{installationId}/api-key/rotate`, a.main.installationId, inst],
    [`POST ${T}/installations/{installationId}/webhook-secret/rotate`, a.main.installationId, inst],
    [`POST ${T}/installations/{installationId}/disconnect`, a.main.installationId, inst],
  ]);

  // Provider connections and dispatch, as tenant B with A's connection and the order A dispatched
  // to it. A leaked change would add the connection to B, replace its credentials (the last test's
  // signed callback would fail), certify it or dispatch A's order by B's rules.
  const PC = `${T}/provider-connections`;
  const conn = a.connection!;
  const connection = (id: string) => ({ params: { connectionId: id } });
  const dispatched = (id: string) => ({ params: { orderId: id } });
  add('tenant-provider-connections', "tenant B with A's", tenantB, [
    [`GET ${PC}/{connectionId}`, conn.connectionId, connection],
    [`GET ${PC}/{connectionId}/scorecard`, conn.connectionId, connection],
    [`GET ${T}/deliveries/{orderId}/dispatch`, a.dispatched!.orderId, dispatched],
    [`POST ${PC}/{connectionId}/install`, conn.connectionId, connection],
    [
      `PUT ${PC}/{connectionId}/credentials`,
      conn.connectionId,
      (id) => ({ ...connection(id), body: { apiKey: 'pdk_mine', signingSecret: 'whsec_mine' } }),
    ],
    [
      `POST ${PC}/{connectionId}/certifications`,
      conn.connectionId,
      (id) => ({ ...connection(id), body: certificateFor(`${cluster.provider.url}/v1`, conn.name) }),
    ],
    [`POST ${T}/deliveries/{orderId}/dispatch`, a.dispatched!.orderId, dispatched],
  ]);

  // Provider contract, as platform account B with account A's delivery.
  const delivery = (id: string) => ({ params: { providerDeliveryId: id } });
  add('provider', "account B with A's delivery", bearer(pb.apiKey), [
    ['GET /deliveries/{providerDeliveryId}/status', pa.deliveryId, delivery],
    ['GET /deliveries/{providerDeliveryId}/tracking', pa.deliveryId, delivery],
    ['PATCH /deliveries/{providerDeliveryId}', pa.deliveryId, (id) => ({ ...delivery(id), body: { notes: 'mine' } })],
    [
      'POST /deliveries/{providerDeliveryId}/cancel',
      pa.deliveryId,
      (id) => ({ ...delivery(id), body: { stage: 'before_pickup' } }),
    ],
    [
      'POST /deliveries/{providerDeliveryId}/return',
      pa.deliveryId,
      (id) => ({ ...delivery(id), body: { reasonCode: 'customer_absent' } }),
    ],
  ]);
  // The administrator API, under account B's path, with account A's delivery, driver and key.
  const A = '/admin/v1/platform-accounts/{accountId}';
  const underB = (params: Record<string, string>, body?: unknown) => ({
    params: { accountId: pb.accountId, ...params },
    ...(body === undefined ? {} : { body }),
  });
  add('provider-admin', "account B's path with A's", bearer(cluster.providerAdminToken), [
    [`GET ${A}/deliveries/{providerDeliveryId}`, pa.deliveryId, (id) => underB({ providerDeliveryId: id })],
    [
      `POST ${A}/deliveries/{providerDeliveryId}/events`,
      pa.deliveryId,
      (id) => underB({ providerDeliveryId: id }, { eventType: 'delivery.picked_up' }),
    ],
    [`GET ${A}/drivers/{driverId}`, pa.driver.id, (id) => underB({ driverId: id })],
    [`PATCH ${A}/drivers/{driverId}`, pa.driver.id, (id) => underB({ driverId: id }, { name: 'Mallory' })],
    [`POST ${A}/drivers/{driverId}/token`, pa.driver.id, (id) => underB({ driverId: id })],
    [`DELETE ${A}/api-keys/{keyId}`, pa.keyId, (id) => underB({ keyId: id })],
  ]);
  // The courier API, as a driver of account B and as the other driver of account A, with the
  // delivery A's first driver carries. Offers answer 409 offer.not_available for anything not
  // offered to the caller (their document lists no 404), an unknown id the same.
  for (const [who, driver] of [
    ["B's driver with A's", pb.driver],
    ["A's other driver with A's", pa.otherDriver],
  ] as const)
    add('provider-courier', `${who} delivery`, bearer(driver.token), [
      ['GET /deliveries/{providerDeliveryId}', pa.deliveryId, delivery],
      [
        'POST /deliveries/{providerDeliveryId}/events',
        pa.deliveryId,
        (id) => ({ ...delivery(id), body: { eventType: 'delivery.picked_up' } }),
      ],
      ['POST /offers/{providerDeliveryId}/accept', pa.deliveryId, delivery, 409],
      ['POST /offers/{providerDeliveryId}/decline', pa.deliveryId, delivery, 409],
    ]);

  // Deletions last.
  add('tenant-catalog', "tenant B with A's", tenantB, [
    [`DELETE ${C}/products/{id}`, a.menu.pizza.id, byId],
    [`DELETE ${C}/modifier-groups/{id}`, a.menu.toppings.id, byId],
    [`DELETE ${C}/categories/{id}`, a.categoryId, byId],
    [`DELETE ${C}/tax-categories/{id}`, a.menu.food7, byId],
    [`DELETE ${C}/branches/{id}`, a.menu.branchId, byId],
  ]);
  add('tenant-orders', "tenant B with A's", tenantB, [
    [`DELETE ${T}/delivery-zones/{id}`, a.zoneId, byId],
    [`DELETE ${T}/promotions/{id}`, a.promotionId, byId],
  ]);
  add('marketplace', "tenant B with A's installation", tenantB, [
    [`DELETE ${T}/installations/{installationId}`, a.main.installationId, inst],
  ]);
  return probes;
}

/**
 * The documented 403s: an installation without the operation's scope (Partner API), an account
 * without the operation's capability (provider contract). The Partner API answers 403 before any
 * lookup; the provider contract answers 404 before anything else (for an unknown delivery and
 * another account's alike). Either way the other owner's identifier and an unknown one get the same answer.
 */
export function forbiddenProbes({ a, pa }: Owners, narrow: Installation, incapable: string): Probe[] {
  const P = '/api/partner/v1';
  const order = (id: string) => ({ params: { orderId: id } });
  const delivery = (id: string) => ({ params: { providerDeliveryId: id } });
  const probes: Array<[ApiName, string, Caller, string, string, Probe['request']]> = [
    ['partner', 'B1 with Catalog.Read only, A1', partnerCaller(narrow), `GET ${P}/orders/{orderId}`, a.orderId, order],
    [
      'partner',
      'B1 with Catalog.Read only, A1',
      partnerCaller(narrow),
      `POST ${P}/deliveries/{orderId}/accept`,
      a.orderId,
      order,
    ],
    [
      'provider',
      "account B without capabilities, A's",
      bearer(incapable),
      'PATCH /deliveries/{providerDeliveryId}',
      pa.deliveryId,
      (id) => ({ ...delivery(id), body: { notes: 'mine' } }),
    ],
    [
      'provider',
      "account B without capabilities, A's",
      bearer(incapable),
      'POST /deliveries/{providerDeliveryId}/cancel',
      pa.deliveryId,
      (id) => ({ ...delivery(id), body: { stage: 'before_pickup' } }),
    ],
    [
      'provider',
      "account B without capabilities, A's",
      bearer(incapable),
      'POST /deliveries/{providerDeliveryId}/return',
      pa.deliveryId,
      (id) => ({ ...delivery(id), body: { reasonCode: 'customer_absent' } }),
    ],
  ];
  return probes.map(([api, what, caller, op, foreign, request]) => ({
    api,
    what,
    caller,
    op,
    foreign,
    request,
    // The provider contract looks the delivery up first (404 before anything else, so an account
    // without the capability learns nothing of another's ids either); the Partner API checks the
    // scope before any lookup (403).
    status: api === 'provider' ? 404 : 403,
  }));
}

/**
 * Identifiers in bodies and queries: another tenant's branch, product, zone, category, tax
 * category, modifier group, installation or provider connection's installation is the same answer
 * as one that does not exist.
 */
export function bodyProbes({ a, b }: Owners): Probe[] {
  const tenantB = bearer(b.token);
  const C = '/api/tenant/v1/catalog';
  const T = '/api/tenant/v1';
  const product = (overrides: Record<string, unknown>) => ({
    categoryId: b.categoryId,
    name: 'Probe',
    taxCategoryId: b.menu.food7,
    variants: [{ name: 'One', price: 1, isDefault: true }],
    ...overrides,
  });
  const order = (overrides: Record<string, unknown>) =>
    pickupOrder(b.menu, {
      orderMode: 1,
      deliveryZoneId: b.zoneId,
      deliveryAddress: { label: 'Home', addressLine: 'Torstrasse 5', ...INSIDE },
      ...overrides,
    });
  type Row = [string, string, string, Probe['request'], number?, true?];
  const probes: Probe[] = [];
  const add = (api: ApiName, caller: Caller, list: Row[]) => {
    for (const [what, op, foreign, request, status, success] of list) {
      const answer = { ...(status ? { status } : {}), ...(success ? { success } : {}) };
      probes.push({ api, what, caller, op, foreign, request, ...answer });
    }
  };
  /** Most rows here: a body naming the foreign resource, refused with a 400 like an unknown one. */
  const refused = (what: string, op: string, foreign: string, body: (id: string) => unknown): Row => [
    what,
    op,
    foreign,
    (id) => ({ body: body(id) }),
    400,
  ];
  add('tenant-catalog', tenantB, [
    refused("B's product in A's category", `POST ${C}/products`, a.categoryId, (id) => product({ categoryId: id })),
    refused("B's product with A's tax category", `POST ${C}/products`, a.menu.food7, (id) =>
      product({ taxCategoryId: id }),
    ),
    refused("B's product with A's modifier group", `POST ${C}/products`, a.menu.crust.id, (id) =>
      product({ variants: [{ name: 'One', price: 1, isDefault: true, modifierGroupIds: [id] }] }),
    ),
    refused("B's modifier group opening A's", `POST ${C}/modifier-groups`, a.menu.cheeseType.id, (id) => ({
      name: 'Probe',
      minSelections: 0,
      maxSelections: 1,
      isRequired: false,
      options: [{ name: 'O', price: 0, childGroupIds: [id] }],
    })),
    [
      "B's branch availability of A's product",
      `PATCH ${C}/branches/{id}/availability`,
      a.menu.pizza.id,
      (id) => ({ params: { id: b.menu.branchId }, body: { products: { [id]: 1 } } }),
      400,
    ],
    [
      "B's products filtered by A's category",
      `GET ${C}/products`,
      a.categoryId,
      (id) => ({ query: { categoryId: id } }),
      200,
      true,
    ],
  ]);
  add('tenant-orders', tenantB, [
    refused("B's delivery zone at A's branch", `POST ${T}/delivery-zones`, a.menu.branchId, (id) => ({
      branchId: id,
      name: 'Probe',
      geometry: MITTE_SQUARE,
      fee: 1,
    })),
    [
      "B's delivery zones of A's branch",
      `GET ${T}/delivery-zones`,
      a.menu.branchId,
      (id) => ({ query: { branchId: id } }),
      200,
      true,
    ],
  ]);
  add('tenant-deliveries', tenantB, [
    [
      "B's order assigned to A's installation",
      `POST ${T}/deliveries/{orderId}/assign`,
      a.main.installationId,
      (id) => ({ params: { orderId: b.openOrderId }, body: { installationId: id } }),
      422,
    ],
    // A leak would have A's provider carry B's order, on A's credentials.
    [
      "B's order assigned to A's provider connection",
      `POST ${T}/deliveries/{orderId}/assign`,
      a.connection!.installationId,
      (id) => ({ params: { orderId: b.openOrderId }, body: { installationId: id } }),
      422,
    ],
  ]);
  add('tenant-provider-connections', tenantB, [
    refused(
      "B's dispatch rules naming A's provider connection",
      `PUT ${T}/dispatch-rules`,
      a.connection!.installationId,
      (id) => ({
        connections: [id],
        rescue: { enabled: true, withinMinutes: 10 },
      }),
    ),
  ]);
  const P = '/api/partner/v1';
  const line = (productId: string, variantId: string) => ({
    productId,
    variantId,
    quantity: 1,
    modifierSelections: [],
  });
  add('partner', partnerCaller(b.main), [
    refused("B1's order at A's branch", `POST ${P}/orders`, a.menu.branchId, (id) => order({ branchId: id })),
    refused("B1's order in A's delivery zone", `POST ${P}/orders`, a.zoneId, (id) => order({ deliveryZoneId: id })),
    refused("B1's order of A's product", `POST ${P}/orders`, a.menu.cola.id, (id) =>
      order({ lines: [line(id, a.menu.cola.variant)] }),
    ),
    refused("B1's order of A's variant", `POST ${P}/orders`, a.menu.cola.variant, (id) =>
      order({ lines: [line(b.menu.cola.id, id)] }),
    ),
    refused("B1's order with A's modifier option", `POST ${P}/orders`, a.menu.crust.thin, (id) => {
      const selection = { selectionId: selectionId(), modifierGroupId: b.menu.crust.id, modifierOptionId: id };
      return order({ lines: [{ ...line(b.menu.pizza.id, b.menu.pizza.large), modifierSelections: [selection] }] });
    }),
  ]);
  return probes;
}
