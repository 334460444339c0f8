import { PROVIDER_ERROR_CODES, providerApiDocument } from '@marketplace/contracts';
import { AppError, type ErrorKind } from '@marketplace/errors';
import { statusOf } from '@marketplace/http';
import {
  codesOnNoOperation,
  documentOperations,
  errorTableOf,
  headersSetIn,
  operationErrorCodes,
  responseCodeProblems,
  retryAfterHeaderName,
  retryAfterProblems,
  scanErrorCodes,
  statusesByCode,
  type ErrorCodeSite,
} from '@marketplace/testing';

// Every status and code a platform can receive from the provider contract's API (`/v1`) is in its
// document, and the document lists nothing that is never sent. The codes are read from the source
// of everything that answers a `/v1` request (scanErrorCodes of @marketplace/testing): the shared
// HTTP layer and error helpers, and provider-delivery (its platform routes, use cases and audience
// guards). What the scan finds that no `/v1` request can get is excluded below, each with why.

const SOURCES = [
  'shared/errors/src',
  'shared/http/src',
  'shared/identity/src',
  'shared/redis/src',
  'shared/store/src',
  'services/provider-delivery/src',
];

/** Codes the scan finds that no `/v1` request can receive, and why. */
const NOT_CONTRACT: Record<string, string> = {
  'delivery.transition_not_allowed':
    'courier API (/courier/v1) and operations API only: a progress report the status does not allow',
  'driver.not_found': 'administrator API only: the drivers of an account',
  'offer.not_available': 'courier API only: an offer that ran out or was answered',
};

/**
 * Codes no documented operation answers: a path or method that is no operation, a request whose
 * head was too large or too slow to be read (no route known yet). Every documented path names a
 * delivery, so its unknown ones are `delivery.not_found`.
 */
const OUTSIDE_OPERATIONS: Record<string, string> = {
  'resource.not_found': 'a path that is no operation of the document',
  'request.method_not_allowed': 'a method the path does not have: not an operation of the document',
  'request.timeout': 'the request was not received in time: no route is known yet',
  'request.headers_too_large': 'the request head was too large to read: no route is known yet',
};

/** The codes every operation can get (the platform guard, the shared HTTP layer, the store). */
const EVERY_OPERATION = ['auth.unauthenticated', 'request.rate_limited', 'internal', 'service.unavailable'];
/** And every operation with a body. */
const EVERY_BODY = [
  'request.malformed',
  'request.invalid',
  'request.too_large',
  'request.unsupported_media_type',
  'request.aborted',
];
/** And every operation naming a delivery in its path (`..` or an encoded slash; an unknown id). */
const EVERY_DELIVERY = ['request.path_invalid', 'delivery.not_found'];
/** And every change of a delivery (PATCH, cancel, return): the capability, the compare-and-set. */
const EVERY_CHANGE = ['auth.forbidden', 'resource.busy'];

// ---------------------------------------------------------------------------------------------

const scan = scanErrorCodes(SOURCES);
const statusOfKind = (kind: string) => statusOf(new AppError(kind as ErrorKind, 'x', 'x'));
const statusOfSite = (site: ErrorCodeSite): number | undefined =>
  site.status ?? (site.kind ? statusOfKind(site.kind) : undefined);

const found = statusesByCode(scan.sites, statusOfKind);
/** What a platform can receive: code → statuses. */
const sent = new Map([...found].filter(([code]) => !(code in NOT_CONTRACT)));

type Json = Record<string, unknown>;
const doc = providerApiDocument;
const obj = (value: unknown): Json => value as Json;
const errorsTable = () => errorTableOf(String(obj(doc.info).description));
const operations = documentOperations(doc);
const headersOf = (response: Json): string[] => Object.keys(obj(response.headers ?? {}));
const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));

describe('provider contract document: the codes and statuses provider-delivery sends', () => {
  it('reads a code at every place the scanned sources make an error', () => {
    expect(scan.unresolved).toEqual([]);
    expect(sent.size).toBeGreaterThan(15);
  });

  it('excludes only codes the scan finds, none of which the document lists', () => {
    expect(Object.keys(NOT_CONTRACT).filter((code) => !found.has(code))).toEqual([]);
    expect(Object.keys(NOT_CONTRACT).filter((code) => errorsTable().has(code))).toEqual([]);
  });

  it('names every code a platform can receive in the error table, with its statuses', () => {
    const table = errorsTable();
    const missing = [...sent.keys()].filter((code) => !table.has(code)).sort();
    const wrongStatuses = [...sent]
      .filter(([code, statuses]) => table.has(code) && statuses.length > 0)
      .filter(([code, statuses]) => JSON.stringify(table.get(code)) !== JSON.stringify(statuses))
      .map(([code, statuses]) => `${code}: sent ${statuses.join(', ')}, documented ${table.get(code)!.join(', ')}`);
    expect({ missing, wrongStatuses }).toEqual({ missing: [], wrongStatuses: [] });
  });

  it('lists no code that is never sent', () => {
    expect([...errorsTable().keys()].filter((code) => !sent.has(code)).sort()).toEqual([]);
  });

  it('lists the same codes and statuses in PROVIDER_ERROR_CODES, `x-error-codes` and the error table', () => {
    const constant = new Map(Object.entries(PROVIDER_ERROR_CODES).map(([code, { statuses }]) => [code, [...statuses]]));
    expect(sorted(constant)).toEqual(sorted(errorsTable()));
    const listed = obj(doc['x-error-codes'] ?? {});
    const machine = new Map(Object.entries(listed).map(([code, entry]) => [code, obj(entry).statuses as number[]]));
    expect(sorted(machine)).toEqual(sorted(errorsTable()));
    // The envelope's `code` names them too.
    const code = obj(obj(obj(obj(obj(doc.components).schemas).ProviderError).properties).code);
    for (const name of errorsTable().keys()) expect(String(code.description)).toContain(`\`${name}\``);
  });

  it("lists each error response's codes, each documented with that status and named in its description", () => {
    expect(responseCodeProblems(operations, errorsTable())).toEqual([]);
  });

  it('answers every code of the error table on some operation, unless no operation can', () => {
    expect(codesOnNoOperation(operations, errorsTable(), OUTSIDE_OPERATIONS)).toEqual([]);
    for (const code of Object.keys(OUTSIDE_OPERATIONS)) expect(sent.has(code)).toBe(true);
  });

  it('documents on each operation the codes (with all their statuses) it can get', () => {
    const missing: string[] = [];
    for (const op of operations) {
      const listed = operationErrorCodes(op);
      const changes = op.method === 'PATCH' || /\/(cancel|return)$/.test(op.path);
      const expected = [
        ...EVERY_OPERATION,
        ...(op.operation.requestBody ? EVERY_BODY : []),
        ...(op.path.includes('{providerDeliveryId}') ? EVERY_DELIVERY : []),
        ...(changes ? EVERY_CHANGE : []),
      ];
      for (const code of expected)
        for (const status of sent.get(code) ?? [])
          if (!listed.get(code)?.includes(String(status))) missing.push(`${op.id}: ${code} (${status})`);
    }
    expect(missing).toEqual([]);
  });
});

describe('provider contract document: the headers provider-delivery sends', () => {
  it('sends Retry-After with every status whose errors carry it, required where all of them do', () => {
    const header = retryAfterHeaderName();
    expect(header).toBe('Retry-After');
    const contractSites = scan.sites.filter((site) => sent.has(site.code));
    const { statuses, problems } = retryAfterProblems(doc, operations, contractSites, statusOfSite, header!);
    expect(statuses).toEqual([429, 503]);
    expect(problems).toEqual([]);
  });

  it("documents the platform guard's headers: Cache-Control on every answer, the rate-limit headers on all but 401", () => {
    const headers = headersSetIn('services/provider-delivery/src/http/auth.ts');
    expect(headers).toEqual(['Cache-Control', 'RateLimit-Limit', 'RateLimit-Remaining']);
    const missing: string[] = [];
    for (const op of operations)
      for (const [status, response] of Object.entries(op.responses))
        for (const header of headers) {
          if (status === '401' && header.startsWith('RateLimit-')) continue;
          if (!headersOf(response).includes(header)) missing.push(`${op.id} ${status}: ${header}`);
        }
    expect(missing).toEqual([]);
    for (const op of operations) expect(headersOf(op.responses['401']!)).not.toContain('RateLimit-Limit');
  });
});
