// JSON calls to the gateway's administrator and tenant APIs (and provider-delivery's administrator
// API), each with a timeout, and the one-line errors the seed script prints. Tokens travel in
// headers only; no message contains one.

/** Every request gives up after this long. */
export const REQUEST_TIMEOUT_MS = Number(process.env.DEMO_SEED_TIMEOUT_MS ?? 15_000);

/** A failure to report as one line (no stack trace) and exit non-zero. */
export class SeedError extends Error {
  constructor(message, { exitCode = 1, problem } = {}) {
    super(message);
    this.name = 'SeedError';
    this.exitCode = exitCode;
    /** The gateway's problem body, when the error is an HTTP error. */
    this.problem = problem;
  }
}

/** The HTTP error of a call: method, path, status, problem code (and field errors, if any). */
export class HttpError extends SeedError {
  constructor(method, path, status, problem) {
    const isObject = problem && typeof problem === 'object';
    const code = isObject && typeof problem.code === 'string' ? problem.code : 'no problem code';
    // problem+json (`detail`, `errors`), or provider-delivery's envelope (`message`, `fieldErrors`).
    const text = isObject ? (problem.detail ?? problem.message) : undefined;
    const detail = typeof text === 'string' ? `: ${text}` : '';
    const errors = isObject ? (problem.errors ?? problem.fieldErrors) : undefined;
    const fields =
      errors && typeof errors === 'object'
        ? ` (${Object.entries(errors)
            .map(([field, messages]) => `${field} ${[].concat(messages).join(', ')}`)
            .join('; ')})`
        : '';
    super(`${method} ${path} -> ${status} ${code}${detail}${fields}`, { problem });
    this.status = status;
    this.code = problem?.code;
  }
}

/** Which service a client talks to, for its messages: its name in them and the option that moves it. */
const GATEWAY = { label: 'the gateway', name: 'gateway-auth', option: '--gateway' };
export const PROVIDER_SERVICE = { label: 'provider-delivery', name: 'provider-delivery', option: '--provider-url' };

function unreachable(baseUrl, error, service) {
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') return undefined;
  const code = error?.cause?.code ?? error?.code ?? error?.cause?.message ?? error?.message;
  return new SeedError(
    `cannot reach ${service.label} at ${baseUrl} (${code}): start the services with \`npm start\`, or pass ${service.option} URL`,
  );
}

/** What a refused token (401) means, by role. */
const REFUSED = {
  admin:
    " (the admin token was refused: it must be signed with the gateway's MARKETPLACE_TOKEN_SECRET; for a deployed cluster pass --admin-token or MARKETPLACE_ADMIN_TOKEN)",
  tenant: ' (the tenant token was refused)',
  'provider-admin':
    " (the provider administrator token was refused: it must be signed with provider-delivery's PROVIDER_ADMIN_TOKEN_SECRET; for a deployed cluster set PROVIDER_ADMIN_TOKEN)",
};

/**
 * A client for one base URL (the gateway's origin, or provider-delivery's: `service`) with one
 * bearer token of `role` (admin, tenant or provider-admin). `request` answers { status, body } for
 * any status; `call` throws HttpError unless the status is expected.
 */
export function apiClient(baseUrl, token, role = 'admin', service = GATEWAY) {
  async function request(method, path, body) {
    let res;
    try {
      res = await fetch(baseUrl + path, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw (
        unreachable(baseUrl, error, service) ??
        new SeedError(`${method} ${path} -> no answer within ${REQUEST_TIMEOUT_MS} ms from ${baseUrl}`)
      );
    }
    let text;
    try {
      text = await res.text();
    } catch {
      throw new SeedError(
        `${method} ${path} -> ${res.status}, but the response body did not arrive within ${REQUEST_TIMEOUT_MS} ms`,
      );
    }
    let parsed;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not the service (or not its API): report the status, never the body.
        throw new SeedError(
          `${method} ${path} -> ${res.status} with a non-JSON body: is ${baseUrl} the ${service.name} service?`,
        );
      }
    }
    return { status: res.status, body: parsed };
  }

  async function call(method, path, body, expected = [200, 201, 204]) {
    const res = await request(method, path, body);
    if (!expected.includes(res.status)) {
      const error = new HttpError(method, path, res.status, res.body);
      if (res.status === 401) error.message += REFUSED[role] ?? '';
      throw error;
    }
    return res.body;
  }

  return { baseUrl, request, call };
}
