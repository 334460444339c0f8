import { randomBytes } from 'node:crypto';
import { isUuid } from './ids';

/**
 * The audit log of the administrator and tenant APIs: one event per mutation, saying who (role,
 * subject, tenant, token id), what (method and route pattern, the path's identifiers), when, from
 * which address, with which outcome. Never a body, a header or a secret.
 */

/** The requests that change something and are audited. */
export const AUDITED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An event id: a UUID version 7 (RFC 9562), whose first 48 bits are the time in milliseconds, so
 * ids sort by time as strings; newest first is descending id, and a page's last id is the cursor
 * of the next one with no ties.
 */
export function auditEventId(atMs: number, random: Buffer = randomBytes(10)): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(atMs)), 0, 6);
  random.copy(bytes, 6, 0, 10);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The smallest event id at `atMs`: every event older than that moment has a smaller id. */
export function firstAuditEventIdAt(atMs: number): string {
  return auditEventId(atMs, Buffer.alloc(10));
}

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The time (ms) an event id carries; undefined for anything but a UUID v7 (no event's id). */
export function auditEventTime(id: string): number | undefined {
  const lower = id.toLowerCase();
  return V7.test(lower) ? parseInt(lower.slice(0, 8) + lower.slice(9, 13), 16) : undefined;
}

/** `POST /api/tenant/v1/installations/:installationId/api-key/rotate`: the route, never the raw path. */
export const auditAction = (method: string, route: string): string => `${method} ${route}`;

/** A path value worth recording: an id (uuid, key id, version number) or a short word of a path. */
const ID_LIKE = /^[A-Za-z0-9._-]{1,32}$/;
/** What stands for a path value that is not recorded. */
export const NOT_RECORDED = '…';

const recordable = (value: string): string => (isUuid(value) || ID_LIKE.test(value) ? value : NOT_RECORDED);

/**
 * The identifiers a request named in its path (the route's parameters). Only values shaped like an
 * id or a path word are kept, anything longer or of other characters (it cannot name a resource of
 * ours, and could be a credential pasted in the wrong place) is replaced by `…`. A forwarded tenant
 * route's tail (`rest`) is kept as its path, segment by segment under the same rule.
 */
export function auditTarget(params: Record<string, unknown>): Record<string, string> {
  const target: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (!/^[A-Za-z][A-Za-z0-9]{0,31}$/.test(name)) continue;
    const segments = Array.isArray(value) ? value : typeof value === 'string' ? value.split('/') : undefined;
    if (!segments) continue;
    if (name === 'rest') target.path = segments.map((s) => recordable(String(s))).join('/');
    else if (typeof value === 'string') target[name] = recordable(value);
  }
  return target;
}
