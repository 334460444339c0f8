const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id of ours is a uuid (the spec's path parameters too). */
export const isUuid = (value: string): boolean => UUID.test(value);
