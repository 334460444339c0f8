/**
 * Every id of ours is a uuid (the spec's path parameters too). The same shape as the shared HTTP
 * layer's `pathId` check (`@marketplace/http`), kept here so that the domain loads no framework.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);
