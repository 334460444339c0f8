import { notFound } from '@marketplace/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id of ours is a uuid (the spec's path parameters too). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A path id that cannot name anything (not a uuid) is simply not found, like a missing one. */
export function pathId(value: string | undefined): string {
  if (!value || !isUuid(value)) throw notFound();
  return value.toLowerCase();
}
