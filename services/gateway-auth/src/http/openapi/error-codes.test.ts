import { AppError, type ErrorKind } from '@marketplace/errors';
import { JSON_MEDIA_TYPES, statusOf } from '@marketplace/http';
import {
  codesOnNoOperation,
  documentOperations,
  errorTableOf,
  followRef,
  headersSetIn,
  operationErrorCodes,
  responseCodeProblems,
  retryAfterHeaderName,
  retryAfterProblems,
  scanErrorCodes,
  sourceWithoutComments,
  statusesByCode,
  type ErrorCodeSite,
} from '@marketplace/testing';
import { PARTNER_EXTENSION_ROUTES } from '../../domain/partner-extension-routes';
import { OWNER_SERVICES, PARTNER_PREFIX, PARTNER_ROUTES as SPEC_ROUTES } from '../../domain/partner-routes';
import { partnerApiDocument, type Json } from './partner-api';

// Every status and code a partner can receive is in the Partner API document, and the document
// lists nothing that is never sent. The codes are not listed here: they are read from the source
// of everything that answers a Partner API request (scanErrorCodes of @marketplace/testing: every
// AppError made, with its kind or status): the shared HTTP layer and error helpers, the gateway,
// and the owner service of each Partner API route. What the scan finds that no Partner API
// request can get is excluded below, each code with why.

/** The spec's routes and our extension's: every owner of a Partner API operation. */
const PARTNER_ROUTES = [...SPEC_ROUTES, ...PARTNER_EXTENSION_ROUTES];
const SERVICES = [...new Set(PARTNER_ROUTES.map((route) => OWNER_SERVICES[route.owner]))].sort();
const SOURCES = [
  'shared/errors/src',
  'shared/http/src',
  'shared/identity/src',
  'shared/redis/src',
  'shared/store/src',
  'services/gateway-auth/src',
  ...SERVICES.map((service) => `services/${service}/src`),
];

const TENANT_ASSIGN =
  "tenant deliveries API only: assigning an order's delivery (delivery-assignment usecases/assign.ts)";
const MARKETPLACE = 'marketplace API only (tenants, apps, contract versions, installations, credentials)';
const OAUTH = "marketplace API only: the OAuth2 connect flow against the partner's authorization server";
const PROCESSOR =
  "payment processors only: a tenant's processor confirming a payment (ordering usecases/payments/confirm-payment-by-processor.ts)";
/** Codes the scan finds that no Partner API request can receive, and why. */
const PROVIDER_CALLBACK =
  "delivery-assignment's provider callback route only (a provider's events, in the provider contract's envelope)";
const CONNECTIONS = 'tenant and administrator provider-connection APIs only: a conformance certificate';
const NOT_PARTNER: Record<string, string> = {
  'catalog.in_use': 'tenant catalog API only: deleting a resource still in use',
  'delivery.already_delivered': TENANT_ASSIGN,
  'delivery.assignment_in_progress': TENANT_ASSIGN,
  'delivery.branch_not_locatable': TENANT_ASSIGN,
  'delivery.connection_not_certified': TENANT_ASSIGN,
  'auth.invalid_signature': PROVIDER_CALLBACK,
  'callback.reference_mismatch': PROVIDER_CALLBACK,
  'callback.status_unknown': PROVIDER_CALLBACK,
  'callback.unknown': PROVIDER_CALLBACK,
  'connection.certificate_mismatch': CONNECTIONS,
  'dispatch.no_connection_available': TENANT_ASSIGN,
  'dispatch.no_rules': TENANT_ASSIGN,
  'connection.certificate_untrusted': CONNECTIONS,
  'delivery.copies_behind': TENANT_ASSIGN,
  'delivery.installation_lacks_scope': TENANT_ASSIGN,
  'delivery.installation_not_connected': TENANT_ASSIGN,
  'delivery.installation_unknown': TENANT_ASSIGN,
  'delivery.order_not_assignable': TENANT_ASSIGN,
  'delivery.order_not_deliverable': TENANT_ASSIGN,
  'delivery.provider_not_notifiable': TENANT_ASSIGN,
  'marketplace.app.slug_taken': MARKETPLACE,
  'marketplace.contract_version.published': MARKETPLACE,
  'marketplace.installation.already_connected': MARKETPLACE,
  'marketplace.installation.exists': MARKETPLACE,
  'marketplace.installation.no_events': MARKETPLACE,
  'marketplace.installation.not_connected': MARKETPLACE,
  'marketplace.installation.oauth_unavailable': MARKETPLACE,
  'marketplace.tenant.slug_taken': MARKETPLACE,
  'oauth.authorization_denied': OAUTH,
  'oauth.endpoint_invalid': OAUTH,
  'oauth.state_invalid': OAUTH,
  'oauth.token_exchange_failed': OAUTH,
  'oauth.token_exchange_timeout': OAUTH,
  'order.invalid_transition': "tenant orders API only: the tenant's order actions",
  'order.payment_not_recordable': "tenant orders API only: the tenant's order actions",
  'promotion.code_taken': 'tenant orders API only: promotions',
  'payment.event_conflict': PROCESSOR,
  'payment.method_not_card': PROCESSOR,
  'payment.currency_mismatch': PROCESSOR,
  'payment.amount_mismatch': PROCESSOR,
  'provider_callback.superseded':
    "provider-delivery's administrators only: redelivering a provider callback (webhook-sender admin-routes.ts)",
  'provider_event.delivery_mismatch': "webhook-sender's Kafka consumer of provider events: no HTTP request",
  'webhook.installations_behind':
    "webhook-sender's Kafka consumers (a domain event waits for the installation copy): no HTTP request",
};

/**
 * Codes no documented operation answers: a method the path does not have (405), a request whose
 * head was too large or too slow to be read (431, 408: answered before any route is known).
 */
const OUTSIDE_OPERATIONS: Record<string, string> = {
  'request.method_not_allowed': 'a method the path does not have: not an operation of the document',
  'request.timeout': 'the request was not received in time: no route is known yet',
  'request.headers_too_large': 'the request head was too large to read: no route is known yet',
};

/** The codes of every answer the gateway forwards, so of every operation. */
const EVERY_OPERATION = [
  'auth.unauthenticated',
  'auth.insufficient_scope',
  'rate_limit.exceeded',
  'internal',
  'service.unavailable',
  'upstream.bad_response',
  'upstream.unavailable',
  'upstream.timeout',
];
/** And of every POST and PATCH: the body, the Idempotency-Key, the owner's lock or compare-and-set. */
const EVERY_MUTATION = [
  'idempotency.key_missing',
  'idempotency.key_invalid',
  'idempotency.key_reused',
  'idempotency.request_in_progress',
  'request.malformed',
  'request.invalid',
  'request.too_large',
  'request.unsupported_media_type',
  'resource.busy',
];
/** And of every operation with path parameters (`..` or an encoded slash in one; an unknown id). */
const EVERY_PARAMETER = ['request.path_invalid', 'resource.not_found'];

// ---------------------------------------------------------------------------------------------

const scan = scanErrorCodes(SOURCES);
const statusOfKind = (kind: string) => statusOf(new AppError(kind as ErrorKind, 'x', 'x'));
const statusOfSite = (site: ErrorCodeSite): number | undefined =>
  site.status ?? (site.kind ? statusOfKind(site.kind) : undefined);

const found = statusesByCode(scan.sites, statusOfKind);
/** What a partner can receive: code → statuses. */
const sent = new Map([...found].filter(([code]) => !(code in NOT_PARTNER)));

const doc = partnerApiDocument;
const obj = (value: unknown): Json => value as Json;
const errorsTable = () => errorTableOf(String(obj(doc.info).description));
const operations = documentOperations(doc);
const headersOf = (response: Json): string[] => Object.keys(obj(response.headers ?? {}));
const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));

describe('Partner API document: the codes and statuses the services send', () => {
  it('reads a code at every place the scanned sources make an error', () => {
    expect(scan.unresolved).toEqual([]);
    expect(scan.files.length).toBeGreaterThan(100);
    expect(sent.size).toBeGreaterThan(25);
  });

  it('excludes only codes the scan finds, none of which the document lists', () => {
    const stale = Object.keys(NOT_PARTNER).filter((code) => !found.has(code));
    expect(stale).toEqual([]);
    const documented = Object.keys(NOT_PARTNER).filter((code) => errorsTable().has(code));
    expect(documented).toEqual([]);
  });

  it('names every code a partner can receive in the Errors table, with its statuses', () => {
    const table = errorsTable();
    const missing = [...sent.keys()].filter((code) => !table.has(code)).sort();
    const wrongStatuses = [...sent]
      .filter(([code, statuses]) => table.has(code) && statuses.length > 0)
      .filter(([code, statuses]) => JSON.stringify(table.get(code)) !== JSON.stringify(statuses))
      .map(([code, statuses]) => `${code}: sent ${statuses.join(', ')}, documented ${table.get(code)!.join(', ')}`);
    expect({ missing, wrongStatuses }).toEqual({ missing: [], wrongStatuses: [] });
  });

  it('lists no code that is never sent', () => {
    const neverSent = [...errorsTable().keys()].filter((code) => !sent.has(code)).sort();
    expect(neverSent).toEqual([]);
  });

  it('lists the same codes and statuses in `x-error-codes` as in the Errors table', () => {
    const listed = obj(doc['x-error-codes'] ?? {});
    const machine = new Map(Object.entries(listed).map(([code, entry]) => [code, obj(entry).statuses as number[]]));
    expect(sorted(machine)).toEqual(sorted(errorsTable()));
    for (const entry of Object.values(listed)) expect(typeof obj(entry).description).toBe('string');
  });

  it("lists each error response's codes, each documented with that status and named in its description", () => {
    expect(responseCodeProblems(operations, errorsTable())).toEqual([]);
  });

  it('answers every code of the Errors table on some operation, unless no operation can', () => {
    expect(codesOnNoOperation(operations, errorsTable(), OUTSIDE_OPERATIONS)).toEqual([]);
    for (const code of Object.keys(OUTSIDE_OPERATIONS)) expect(sent.has(code)).toBe(true);
  });

  it('documents on each operation the codes every forwarded request, mutation and path parameter can get', () => {
    const missing: string[] = [];
    for (const op of operations) {
      const listed = operationErrorCodes(op);
      const expected = [
        ...EVERY_OPERATION,
        ...(op.method === 'GET' ? [] : EVERY_MUTATION),
        ...(op.path.includes('{') ? EVERY_PARAMETER : []),
      ];
      for (const code of expected) {
        const statuses = (sent.get(code) ?? []).map(String);
        if (!statuses.some((status) => listed.get(code)?.includes(status)))
          missing.push(`${op.id}: ${code} (${statuses.join(', ')})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('Partner API document: the headers and media types the services send and accept', () => {
  it('sends Retry-After with every status whose errors carry it, required where all of them do', () => {
    const header = retryAfterHeaderName();
    expect(header).toBe('Retry-After');
    const partnerSites = scan.sites.filter((site) => sent.has(site.code));
    const { statuses, problems } = retryAfterProblems(doc, operations, partnerSites, statusOfSite, header!);
    expect(statuses).toEqual([429, 503]);
    expect(problems).toEqual([]);
  });

  it('documents the rate-limit headers of the edge on every answer after authentication (all but 401)', () => {
    const headers = headersSetIn('services/gateway-auth/src/http/partner/edge.ts');
    expect(headers).toEqual(['RateLimit-Policy', 'RateLimit']);
    const missing: string[] = [];
    for (const op of operations)
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '401') continue;
        for (const header of headers)
          if (!headersOf(response).includes(header)) missing.push(`${op.id} ${status}: ${header}`);
      }
    expect(missing).toEqual([]);
    for (const op of operations) expect(headersOf(op.responses['401']!)).not.toEqual(expect.arrayContaining(headers));
  });

  it("documents each owner's success statuses and headers on its operations", () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const path = `services/${service}/src/http/partner-routes.ts`;
      const text = sourceWithoutComments(path);
      const owned = operations.filter((op) =>
        PARTNER_ROUTES.some(
          (r) =>
            OWNER_SERVICES[r.owner] === service &&
            r.method === op.method &&
            PARTNER_PREFIX + r.pattern.replace(/:(\w+)/g, '{$1}') === op.path,
        ),
      );
      expect(owned.length).toBeGreaterThan(0);
      const success = owned.flatMap((op) =>
        Object.entries(op.responses)
          .filter(([status]) => /^[23]/.test(status))
          .map(([, response]) => response),
      );
      for (const status of [...text.matchAll(/\.status\s*=\s*(\d{3})/g)].map((m) => m[1]!))
        if (!owned.some((op) => op.responses[status])) problems.push(`${service}: status ${status}`);
      for (const header of headersSetIn(path))
        if (!success.some((response) => headersOf(response).includes(header))) problems.push(`${service}: ${header}`);
    }
    expect(problems).toEqual([]);
  });

  it("documents the catalog's revalidation: ETag and Cache-Control on 200 and 304, If-None-Match", () => {
    const path = 'services/catalog/src/http/partner-routes.ts';
    const before304 = headersSetIn(path, /\.status\s*=\s*304/);
    expect(before304).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    expect(sourceWithoutComments(path)).toContain("c.get('if-none-match')");
    for (const op of operations.filter((o) => o.path.startsWith(`${PARTNER_PREFIX}/catalog/`))) {
      expect(op.responses['304']).toBeDefined();
      expect(headersOf(op.responses['304']!)).toEqual(expect.arrayContaining(before304));
      expect(headersOf(op.responses['200']!)).toEqual(expect.arrayContaining(headersSetIn(path)));
      const item = obj(obj(doc.paths)[op.path]).get;
      const parameters = ((obj(item).parameters as unknown[]) ?? []).map((p) => followRef(doc, p));
      expect(parameters).toContainEqual(
        expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
      );
    }
  });

  it('accepts every JSON media type the HTTP layer accepts on every request body', () => {
    expect(JSON_MEDIA_TYPES).toEqual(['application/json', 'text/json', 'application/*+json']);
    for (const [, item] of Object.entries(obj(doc.paths)))
      for (const op of Object.values(obj(item))) {
        const body = obj(op).requestBody;
        if (!body) continue;
        const content = Object.keys(obj(obj(body).content));
        for (const type of JSON_MEDIA_TYPES)
          // A range (`application/*+json`) is named in the description: as a content key a generator
          // would send it literally as a Content-Type, which no server accepts.
          if (type.includes('*')) expect(String(obj(body).description)).toContain(`\`${type}\``);
          else expect(content).toContain(type);
      }
  });
});
