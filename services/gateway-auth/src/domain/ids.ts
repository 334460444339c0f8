/**
 * Every id of ours is a uuid (the spec's path parameters too). The same shape as the shared HTTP
 * layer's `pathId` check (`@marketplace/http`), kept here so that the domain loads no framework.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** A contract version's `_id`: unique per app and number, which makes numbering race-free. */
export const contractVersionId = (appId: string, version: number) => `${appId}:${version}`;

/** An idempotency record's `_id`: `<installationId>:<SHA-256 of the Idempotency-Key>` (keys are per installation). */
export const idempotencyRecordId = (owner: { installationId: string }, keyHash: string) =>
  `${owner.installationId}:${keyHash}`;
