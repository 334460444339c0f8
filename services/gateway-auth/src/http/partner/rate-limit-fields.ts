import type { RateDecision } from '@marketplace/redis';

/*
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11): `RateLimit-Policy` states a
 * quota policy, `RateLimit` its current state, each a structured-field list (RFC 9651) of one item
 * whose value is the policy's name as a string. Every limit of the gateway is a sliding window of
 * requests, the draft's default quota unit, so no `qu`; no `pk` either (the partition is the
 * caller, whom the client knows).
 */

/** `"installation";q=60;w=60`: the policy's name, its quota in requests and its window in seconds. */
export const rateLimitPolicy = (name: string, quota: number, windowSeconds: number): string =>
  `"${name}";q=${quota};w=${windowSeconds}`;

/**
 * `"installation";r=59`: what is left of the quota, this request counted. A refusal adds `t`, the
 * seconds until a request is admitted again (the same as its Retry-After): within them the client
 * can use no more than `r=0`. An admitted answer has no `t` (optional in the draft): in a sliding
 * window the quota comes back request by request, as the counted ones age out, and the limiter
 * answers only how many are left.
 */
export const rateLimitState = (name: string, decision: RateDecision): string =>
  `"${name}";r=${Math.max(0, decision.remaining)}${decision.allowed ? '' : `;t=${Math.max(1, decision.retryAfterSeconds)}`}`;
