import { notFound, validationError } from '@marketplace/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id of ours is a uuid (the spec's path parameters too). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A path id that cannot name anything (not a uuid) is simply not found, like a missing one. */
export function pathId(value: string | undefined): string {
  if (!value || !isUuid(value)) throw notFound();
  return value.toLowerCase();
}

/**
 * An optional id in the query: absent is undefined; present, it must be a uuid, else 400
 * `request.invalid` naming the parameter (an empty or malformed filter must not widen a list to all).
 */
export function queryId(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isUuid(value))
    throw validationError('request.invalid', 'The query is invalid; see errors.', { [name]: ['must be one uuid'] });
  return value.toLowerCase();
}
