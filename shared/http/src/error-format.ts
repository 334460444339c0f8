import { AppError, isDatabaseUnreachable, type ErrorKind } from '@marketplace/errors';

/** What an error becomes on the wire: a status, a content type, a body and extra headers. */
export interface ErrorResponse {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The Partner API speaks RFC 9457 problem+json; the provider contract speaks its error envelope. */
export type ErrorFormat = 'problem' | 'envelope';

/** Where the gateway serves the page of each problem type (`/docs/problems/<code>`). */
export const PROBLEM_TYPE_PATH = '/docs/problems';

/**
 * The `type` of a problem: a relative URI reference with the full path, `/docs/problems/<code>`,
 * which the gateway serves as a page describing the code (RFC 9457 §3.1.1 accepts a relative
 * reference, resolved against the request's URI, and recommends the full path when one is used).
 * Relative because every service makes problems and the gateway forwards them untouched: only a
 * relative reference names the same page whichever process answered, in every deployment, and it
 * resolves to the origin the client called, which is the gateway's.
 */
export const problemTypeUri = (code: string): string => `${PROBLEM_TYPE_PATH}/${encodeURIComponent(code)}`;

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  gateway_timeout: 504,
  internal: 500,
};

const TITLE_BY_STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of a status, as the problem's `title` gives it. */
export const statusTitle = (status: number): string => TITLE_BY_STATUS[status] ?? 'Error';

/** An error raised by the HTTP layer itself (body parsing, routing) with its own exact status. */
export class HttpLayerError extends AppError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
  ) {
    super(status === 404 ? 'not_found' : 'validation', code, message);
  }
}

export function statusOf(error: AppError): number {
  return error instanceof HttpLayerError ? error.status : STATUS_BY_KIND[error.kind];
}

export function formatError(error: AppError, format: ErrorFormat, instance?: string): ErrorResponse {
  const status = statusOf(error);
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
  if (format === 'envelope') {
    const body: Record<string, unknown> = { code: error.code, message: error.message, retryable: error.retriable };
    if (error.fieldErrors) body.fieldErrors = error.fieldErrors;
    return { status, contentType: 'application/json', body, headers };
  }
  const body: Record<string, unknown> = {
    type: problemTypeUri(error.code),
    title: statusTitle(status),
    status,
    detail: error.message,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error.details ?? {}),
  };
  if (error.fieldErrors) body.errors = error.fieldErrors;
  return { status, contentType: 'application/problem+json', body, headers };
}

/**
 * Errors that are not AppErrors: body-parser and router errors carry an HTTP status we honour with
 * a fixed, generic message; a database out of reach is 503; anything else is a 500 whose details
 * stay in the log.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // A database out of reach decided nothing: 503 with Retry-After, as for Redis, not a 500.
  if (isDatabaseUnreachable(error))
    return new AppError(
      'unavailable',
      'service.unavailable',
      'The service is temporarily unavailable; try again shortly.',
      {
        cause: error,
        retryAfterSeconds: 1,
      },
    );
  const status =
    (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
  const type = (error as { type?: unknown })?.type;
  if (status === 413 || type === 'entity.too.large')
    return new HttpLayerError(413, 'request.too_large', 'The request body is too large.');
  if (status === 415)
    return new HttpLayerError(415, 'request.unsupported_media_type', 'The request body must be application/json.');
  // The client went away before its body was read (it aborted while its credentials were being
  // checked, say): nothing of ours failed, and nobody is left to read the answer.
  if (type === 'stream.not.readable' || type === 'request.aborted')
    return new HttpLayerError(400, 'request.aborted', 'The request was aborted before its body was received.');
  if (status === 400 || type === 'entity.parse.failed')
    return new HttpLayerError(400, 'request.malformed', 'The request body is not valid JSON.');
  if (status === 405)
    return new HttpLayerError(405, 'request.method_not_allowed', 'The method is not allowed for this resource.');
  if (status === 404) return new HttpLayerError(404, 'resource.not_found', 'The resource does not exist.');
  return new AppError('internal', 'internal', 'An unexpected error occurred.');
}
