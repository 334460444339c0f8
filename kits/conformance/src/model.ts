/**
 * The kit's shapes: what a capability declaration says, what a test is, what a test may use while
 * it runs, and what a report records. Suite → group → test, as the trusted kits of other fields
 * (OpenID's conformance suite, Inferno) arrange theirs; a test belongs to one capability and runs
 * only when the declaration claims it (the core always runs), as OCPP's test tool runs only the
 * profiles a vendor declares.
 */

/** The contract's capabilities, as a declaration names them ("What the service does", "Endpoints"). */
export const CAPABILITIES = [
  'core',
  'supportsPolling',
  'supportsTracking',
  'supportsUpdates',
  'supportsCancellation',
  'supportsReturnToOrigin',
  'supportsScheduledDelivery',
  'supportsWebhooks',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** A status of the contract's vocabulary ("States and transitions"). */
export type Status =
  | 'sent_to_provider'
  | 'provider_accepted'
  | 'driver_assigned'
  | 'arrived_at_pickup'
  | 'picked_up'
  | 'on_the_way'
  | 'delivered'
  | 'cancelled'
  | 'failed'
  | 'return_requested'
  | 'returning_to_origin'
  | 'returned_to_origin'
  | 'return_failed';

export type CancelStage = 'before_pickup' | 'after_pickup';
/** What a provider declares a cancel (or a return) does in a status: `confirmed` moves it (or keeps it cancelled), `refused` leaves it. */
export type Outcome = 'confirmed' | 'refused';

/** A point the kit sends as a pickup or drop-off. */
export interface Point {
  lat: number;
  lng: number;
  address: string;
}

/**
 * What a provider claims (a small JSON file, `declarations/*.json`). The contract makes the
 * provider define its cancellation outcomes and leaves update rules and transitions to it: the
 * declaration states them, and the kit checks the provider does what it declared.
 */
export interface Declaration {
  /** The provider's name, for the report. */
  provider: string;
  /** The contract version and revision the provider implements: "1.1.0" and "2026-09-19". */
  contract: { version: string; revision: string };
  /** Each capability claimed (`core` is implied). supportsProofOfDelivery MUST be false in 1.1.0. */
  capabilities: Partial<Record<Exclude<Capability, 'core'>, boolean>> & { supportsProofOfDelivery?: boolean };
  /** Where deliveries may go: a pickup and a drop-off the provider accepts, and optionally a point it rejects (business rejection). */
  area: { pickup: Point; dropoff: Point; outside?: Point };
  /** Event types beyond the contract's table that the provider may send (a new optional event type is backward compatible). */
  extraEventTypes?: string[];
  /**
   * The provider's allowed moves between statuses (the contract leaves the table to the provider,
   * and the platform needs it to ignore stale regressions); every status sequence observed is
   * checked against it. Absent: only "nothing after a terminal status" is checked.
   */
  transitions?: Partial<Record<Status, Status[]>>;
  /** Cancellation outcomes by status and stage (supportsCancellation); a status not listed is not checked. */
  cancellation?: Partial<Record<Status, Partial<Record<CancelStage, Outcome>>>>;
  /** Return outcomes by status (supportsReturnToOrigin); a status not listed is not checked. */
  returns?: Partial<Record<Status, Outcome>>;
  /** Update rules (supportsUpdates): for each PATCH field group, the statuses in which the provider accepts it. */
  updates?: Partial<Record<UpdateField, Status[]>>;
  /** The webhook test's request body (the contract shows none): `url` sends `{ "url": <callback> }`, `empty` sends `{}`. */
  webhookTest?: { body: 'url' | 'empty' };
  /**
   * The provider's sandbox moves deliveries on its own (a simulated courier, as Uber's Robo Courier
   * or DoorDash's simulator): the kit creates deliveries and waits for them to reach the states a
   * test needs, at most `lifecycleTimeoutSeconds` each. `holdPreparationMinutes` is a preparation
   * time that keeps a delivery before pickup for the whole run.
   */
  sandbox: { lifecycleTimeoutSeconds: number; holdPreparationMinutes: number };
}

/** PATCH fields as the update rules group them (the drop-off's three fields are one change). */
export type UpdateField =
  | 'dropoff'
  | 'customerPhone'
  | 'customerName'
  | 'customerEmail'
  | 'notes'
  | 'amount'
  | 'currency'
  | 'paymentMethod'
  | 'deliveryFeeAmount'
  | 'preparationTimeMinutes'
  | 'scheduledDeliveryAtUtc';

/** Where a rule is written: a section heading of the contract and, where it numbers them, the rule. */
export interface SpecRef {
  section: string;
  rule?: string;
}

/** One HTTP exchange with the provider, kept as evidence (secrets redacted when reported). */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  status: number | null;
  responseHeaders: Record<string, string>;
  /** The body as text (the first 64 KiB in a report), null when no answer came. */
  responseBody: string | null;
  /** The parsed JSON body, undefined when not JSON. */
  json?: unknown;
  /** Size of the whole response body in bytes. */
  responseBytes: number;
  startedAt: string;
  durationMs: number;
  /** Why no answer came (timeout, connection refused). */
  error?: string;
}

/** A callback the kit's receiver got: the exact bytes, headers and when. */
export interface ReceivedCallback {
  /** The label of the callback URL it arrived at (one per delivery, made by the kit). */
  label: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  receivedAt: number;
  /** The status the receiver answered. */
  answeredStatus: number;
}

export type TestStatus = 'pass' | 'fail' | 'skip';

export interface TestResult {
  id: string;
  capability: Capability;
  group: string;
  title: string;
  spec: SpecRef;
  status: TestStatus;
  /** Why it failed or was skipped. */
  reason?: string;
  durationMs: number;
  /** The exchanges it made and the callbacks it looked at, redacted. */
  evidence: {
    exchanges: Exchange[];
    callbacks: Array<Omit<ReceivedCallback, 'body'> & { body: string }>;
    notes: string[];
  };
}

/** The machine report (`report.json`), signed over its canonical form without `signature`. */
export interface Report {
  kit: { name: 'sdp-conformance'; version: string };
  contract: { version: string; revision: string };
  provider: { baseUrl: string; name: string };
  declaration: Declaration;
  startedAt: string;
  finishedAt: string;
  summary: { passed: number; failed: number; skipped: number; total: number };
  /** Per capability: certified when it was declared and every one of its tests (and the core's) passed. */
  capabilities: Array<{
    capability: Capability;
    declared: boolean;
    passed: number;
    failed: number;
    skipped: number;
    certified: boolean;
  }>;
  tests: TestResult[];
  signature?: { algorithm: 'Ed25519'; publicKey: string; value: string };
}
