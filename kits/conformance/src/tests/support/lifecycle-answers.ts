import type { Exchange, Outcome } from '../../model';
import { isRfc3339 } from '../../spec';
import { isEnvelope, isRecord } from './checks';

/**
 * Reading the answers of cancel, return, update and tracking (pure: a test turns a problem into a
 * failure with its own words).
 */

/**
 * The outcome a cancel (`confirmed`) or a return (`accepted`) answer states: 200 with the boolean,
 * or a refusal as a 409 (state conflict) or 422 (unsupported) error envelope, which the contract's
 * error table allows for a change the state does not permit.
 */
export function outcomeOf(
  exchange: Exchange,
  key: 'confirmed' | 'accepted',
): { outcome: Outcome; via: string } | { problem: string } {
  if (exchange.status === 200) {
    const body = exchange.json;
    if (!isRecord(body) || typeof body[key] !== 'boolean') return { problem: `200 without a boolean \`${key}\`` };
    if (body.errorMessage !== undefined && body.errorMessage !== null && typeof body.errorMessage !== 'string')
      return { problem: '`errorMessage` is neither a string nor null' };
    return { outcome: body[key] ? 'confirmed' : 'refused', via: `200 ${key} ${String(body[key])}` };
  }
  if ((exchange.status === 409 || exchange.status === 422) && isEnvelope(exchange.json))
    return { outcome: 'refused', via: `${exchange.status} error envelope` };
  return { problem: `expected 200 with \`${key}\` (or a 409/422 error envelope for a refusal)` };
}

/** What is wrong with `fieldAccepted` for the fields submitted: one boolean per submitted field, nothing else. */
export function fieldAcceptedProblems(body: unknown, submitted: readonly string[]): string[] {
  if (!isRecord(body)) return ['the body is not a JSON object'];
  const accepted = body.fieldAccepted;
  if (!isRecord(accepted)) return ['`fieldAccepted` is not an object'];
  const problems: string[] = [];
  for (const field of submitted)
    if (typeof accepted[field] !== 'boolean') problems.push(`fieldAccepted.${field} is not a boolean`);
  for (const field of Object.keys(accepted))
    if (!submitted.includes(field)) problems.push(`fieldAccepted.${field} was not submitted`);
  if (body.errorMessage !== undefined && body.errorMessage !== null && typeof body.errorMessage !== 'string')
    problems.push('`errorMessage` is neither a string nor null');
  return problems;
}

const nullOr = (value: unknown, ok: (v: unknown) => boolean): boolean =>
  value === null || value === undefined || ok(value);
const isString = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What is wrong with a tracking response's shape ("Tracking response"); an absent nullable field counts as null. */
export function trackingProblems(body: unknown): string[] {
  if (!isRecord(body)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  for (const field of ['driverName', 'driverPhone', 'trackingUrl'])
    if (!nullOr(body[field], isString)) problems.push(`${field} is neither null nor a string`);
  if (!nullOr(body.estimatedDeliveryAtUtc, isRfc3339))
    problems.push('estimatedDeliveryAtUtc is neither null nor an RFC 3339 date-time with an offset');
  if (!isRfc3339(body.eventTimeUtc)) problems.push('eventTimeUtc is not an RFC 3339 date-time with an offset');
  problems.push(...coordinateProblems(body.driverLat, body.driverLng));
  return problems;
}

/** driverLat/driverLng: both null (or absent) or both numbers, lat in [-90, 90], lng in [-180, 180]. */
export function coordinateProblems(lat: unknown, lng: unknown): string[] {
  const none = (v: unknown) => v === null || v === undefined;
  if (none(lat) && none(lng)) return [];
  if (!isNumber(lat) || !isNumber(lng))
    return [
      `driverLat and driverLng are not both numbers or both null (got ${JSON.stringify(lat ?? null)}, ${JSON.stringify(lng ?? null)})`,
    ];
  const problems: string[] = [];
  if (lat < -90 || lat > 90) problems.push(`driverLat ${lat} is outside [-90, 90]`);
  if (lng < -180 || lng > 180) problems.push(`driverLng ${lng} is outside [-180, 180]`);
  return problems;
}
