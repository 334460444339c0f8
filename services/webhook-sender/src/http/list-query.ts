import { validationError } from '@marketplace/errors';
import { isUuid } from '@marketplace/http';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../domain/delivery-status';

const STATUSES: readonly string[] = DELIVERY_STATUSES;

type Query = Record<string, string | string[] | undefined>;

/**
 * The query of a deliveries listing: `status` (one of the statuses), `limit` (1 to 200, 50), and
 * the uuids in `ids` (`required` ones must be there). Every problem at once, as 400
 * `request.invalid` naming each parameter: a malformed filter must not widen a list to all.
 */
export function listQuery<I extends string>(
  query: Query,
  ids: { required?: readonly I[]; optional?: readonly I[] } = {},
): { status?: DeliveryStatus; limit: number } & Partial<Record<I, string>> {
  const errors: Record<string, string[]> = {};
  const { status, limit: limitText } = query;
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status)))
    errors.status = [`must be one of ${STATUSES.join(', ')}`];
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) errors.limit = ['must be an integer from 1 to 200'];
  const found: Partial<Record<I, string>> = {};
  for (const [name, required] of [
    ...(ids.required ?? []).map((n) => [n, true] as const),
    ...(ids.optional ?? []).map((n) => [n, false] as const),
  ]) {
    const value = query[name];
    if (value === undefined) {
      if (required) errors[name] = ['is required'];
    } else if (typeof value !== 'string' || !isUuid(value)) errors[name] = ['must be one uuid'];
    else found[name] = value.toLowerCase();
  }
  if (Object.keys(errors).length > 0)
    throw validationError('request.invalid', 'The query is invalid; see errors.', errors);
  return { ...(status !== undefined ? { status: status as DeliveryStatus } : {}), limit, ...found };
}
