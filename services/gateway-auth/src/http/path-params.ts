import { notFound } from '@marketplace/errors';

export { pathId } from '@marketplace/http';

/** A contract version number in a path: 1 or more, else not found. */
export function pathVersion(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,8}$/.test(value)) throw notFound();
  return Number(value);
}
