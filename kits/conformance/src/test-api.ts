import type { Capability, Declaration, Exchange, ReceivedCallback, SpecRef, Status } from './model';

/**
 * What a conformance test is and what it may use while it runs. The runner (runner/) gives each
 * test a context of its own: its exchanges and the callbacks of its deliveries are its evidence.
 */

export interface ConformanceTest {
  /** Stable id, never reused: `SDP-<GROUP>-<NN>`, e.g. `SDP-CREATE-02`. */
  id: string;
  capability: Capability;
  /** The group it belongs to (auth, create, idempotency, errors, status, tracking, update, cancel, return, events, webhook-test, limits). */
  group: string;
  /** What it checks, one sentence. */
  title: string;
  spec: SpecRef;
  /**
   * `main` tests run concurrently; `after` tests run once every main test finished, over what the
   * whole run recorded (every exchange: no redirect, no answer over 15 s, an envelope on every error).
   */
  phase?: 'main' | 'after';
  /** Longest run; the runner fails the test when it is over (default 60 s; lifecycle tests add the declaration's lifecycle timeout). */
  timeoutMs?: number;
  run(ctx: TestContext): Promise<void>;
}

/** How a test calls the provider; the path is relative to the base URL (`/deliveries`). */
export interface CallOptions {
  /** A JSON body (serialized by the client). */
  body?: unknown;
  /** A body sent byte for byte instead (malformed JSON, a huge body). */
  rawBody?: string | Buffer;
  /** `key` (default): the API key; `none`: no Authorization header; any other string: the header's whole value. */
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the two words name the cases the client treats apart
  auth?: 'key' | 'none' | string;
  /** Content-Type of a body; default `application/json; charset=utf-8`; null sends none. */
  contentType?: string | null;
  /** Extra or replacing headers. */
  headers?: Record<string, string>;
  /** Abort after this long (default: the platform's 15 s, plus a margin to measure an overrun). */
  timeoutMs?: number;
}

export interface ProviderClient {
  /** One request, never following a redirect; recorded as the test's evidence. Never throws for an HTTP status; a network failure is an exchange with `status: null` and `error`. */
  call(method: string, path: string, options?: CallOptions): Promise<Exchange>;
}

/** A parsed callback: the event as JSON (undefined if the body was not JSON) and what arrived. */
export interface CallbackEvent {
  callback: ReceivedCallback;
  event: Record<string, unknown> | undefined;
}

/** One callback URL of the kit's receiver, made for one delivery (an unguessable token in its path). */
export interface CallbackBox {
  label: string;
  url: string;
  /** Every request that arrived, in arrival order, retries included. */
  received(): ReceivedCallback[];
  events(): CallbackEvent[];
  /** Waits until `predicate` holds over the events so far; fails the test naming `what` after `timeoutMs` (default: the lifecycle timeout). */
  waitFor(what: string, predicate: (events: CallbackEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Answers the next `count` requests with `status` (e.g. 503: the provider must retry) instead of 204. */
  failNext(count: number, status: number): void;
}

export interface Callbacks {
  /** A new callback URL (its own token) on the kit's receiver. */
  box(label: string): CallbackBox;
  /** The secret that signs callbacks (the provider connection's webhook secret). */
  readonly webhookSecret: string;
}

/** A delivery the test created and follows. */
export interface TrackedDelivery {
  platformReference: string;
  providerDeliveryId: string;
  /** The create request as sent. */
  request: Record<string, unknown>;
  /** Its callback box (null when created without `webhook.url`). */
  callback: CallbackBox | null;
  /** GET …/status: the status, or null with the exchange when the read failed. */
  readStatus(): Promise<{ status: Status | null; eventTimeUtc: string | null; exchange: Exchange }>;
  /**
   * Waits until the delivery is in one of `statuses` (polling the status read, and watching the
   * callbacks), at most the declaration's lifecycle timeout; fails the test with "<what> not
   * reached within N s (last status X)" otherwise. Returns the status found.
   */
  waitForStatus(statuses: readonly Status[], what: string): Promise<Status>;
}

export interface CreateOptions {
  /** Fields replacing the defaults of a valid create request. */
  overrides?: Record<string, unknown>;
  /** Keep it before pickup for the run (the declaration's holdPreparationMinutes). */
  hold?: boolean;
  /** Give it a callback box (default true). */
  callback?: boolean;
  label?: string;
}

export interface TestContext {
  readonly declaration: Declaration;
  readonly provider: ProviderClient;
  readonly callbacks: Callbacks;
  /** The base URL under test (ends in /v1). */
  readonly baseUrl: string;
  /** The API key (to build a wrong one; never put it in a message). */
  readonly apiKey: string;
  /** Lifecycle timeout of the declaration, in ms. */
  readonly lifecycleTimeoutMs: number;
  /** A valid create request: fresh platformReference and idempotencyKey, the declaration's area, `overrides` applied (a value `undefined` removes the field). */
  deliveryRequest(overrides?: Record<string, unknown>, callback?: CallbackBox | null): Record<string, unknown>;
  /** Creates a delivery (expects 200 accepted: fails the test otherwise) and follows it. */
  createDelivery(options?: CreateOptions): Promise<TrackedDelivery>;
  /** Fails the test with `message` unless `condition` holds. */
  check(condition: unknown, message: string): asserts condition;
  fail(message: string): never;
  /** Ends the test as skipped (applicable only at run time, e.g. no rejection point declared). */
  skip(reason: string): never;
  /** A line of evidence for the report. */
  note(text: string): void;
  sleep(ms: number): Promise<void>;
  /** Polls `probe` until it returns a value other than undefined; fails naming `what` after `timeoutMs`. */
  waitUntil<T>(
    what: string,
    probe: () => Promise<T | undefined> | T | undefined,
    timeoutMs: number,
    everyMs?: number,
  ): Promise<T>;
  /** Every exchange of the whole run so far (for `after` tests). */
  allExchanges(): readonly Exchange[];
  /** Every callback the receiver got in the whole run (for `after` tests), in arrival order. */
  allCallbacks(): readonly ReceivedCallback[];
  /** Every delivery any test created through `createDelivery`, with its callback box (for `after` tests). */
  allDeliveries(): readonly TrackedDelivery[];
}
