/**
 * Application errors shared by every layer. A use case throws one of these; only the HTTP layer
 * turns `kind` into a status code and only the Kafka consumer layer turns `retriable` into
 * "retry later" or "dead-letter". `code` is a stable, dotted string clients can switch on.
 */
export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  /** A server we called (a partner's OAuth server, an internal service) failed or answered badly. */
  | 'bad_gateway'
  /** A server we called did not answer in time. */
  | 'gateway_timeout'
  | 'internal';

/** Field path (for example `lines[2].quantity`) mapped to human-readable messages. */
export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  /** Extra, safe-to-show members merged into the error body (for example `status_detail`). */
  details?: Record<string, unknown>;
  fieldErrors?: FieldErrors;
  /** Seconds a client should wait before retrying (rate limits, unavailability). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly retriable: boolean;
  readonly details?: Record<string, unknown>;
  readonly fieldErrors?: FieldErrors;
  readonly retryAfterSeconds?: number;

  constructor(kind: ErrorKind, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.retriable =
      kind === 'unavailable' || kind === 'rate_limited' || kind === 'bad_gateway' || kind === 'gateway_timeout';
    this.details = options.details;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const validationError = (code: string, message: string, fieldErrors?: FieldErrors) =>
  new AppError('validation', code, message, { fieldErrors });
export const notFound = (code = 'resource.not_found', message = 'The resource does not exist.') =>
  new AppError('not_found', code, message);
export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError('conflict', code, message, { details });
export const unavailable = (code: string, message: string, cause?: unknown) =>
  new AppError('unavailable', code, message, { cause });
/**
 * Another change of the same resource holds it (a lock, a version being numbered): the one code
 * for this in every service, 503 with `Retry-After: 1`, because trying again shortly succeeds.
 */
export const busy = (message: string) =>
  new AppError('unavailable', 'resource.busy', message, { retryAfterSeconds: 1 });

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/**
 * Whether retrying the failed operation later can help. AppErrors say so themselves; for driver
 * errors we trust their own markers (kafkajs `retriable`, MongoDB `hasErrorLabel`, network codes).
 */
/**
 * The MongoDB driver's errors for a database it cannot reach (the engine restarting, a network cut,
 * an election): nothing was decided, so the work can be tried again. Known by name, so that this
 * package does not depend on the driver.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    typeof name === 'string' &&
    /^Mongo(NetworkError|ServerSelectionError|NetworkTimeoutError|NotConnectedError|TopologyClosedError|PoolClearedError)$/.test(
      name,
    )
  );
}

export function isRetriable(error: unknown): boolean {
  if (error instanceof AppError) return error.retriable;
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { retriable?: unknown; code?: unknown; hasErrorLabel?: (l: string) => boolean; name?: unknown };
  if (e.retriable === true) return true;
  if (typeof e.hasErrorLabel === 'function' && (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('ResetPool')))
    return true;
  if (isDatabaseUnreachable(error)) return true;
  return (
    typeof e.code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(e.code)
  );
}
