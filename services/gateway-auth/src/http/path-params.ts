import { notFound } from '@marketplace/errors';
import { isUuid } from '../domain/ids';

/** A path id that cannot name anything (not a uuid) is simply not found, like a missing one. */
export function pathId(value: string | undefined): string {
  if (!value || !isUuid(value)) throw notFound();
  return value.toLowerCase();
}

/** A contract version number in a path: 1 or more, else not found. */
export function pathVersion(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,8}$/.test(value)) throw notFound();
  return Number(value);
}
