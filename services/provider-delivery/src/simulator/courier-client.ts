import type {
  CourierDelivery,
  CourierEventReport,
  CourierEventsSent,
  CourierState,
  Driver,
} from '@marketplace/contracts';
import { signBearerToken } from '@marketplace/identity';

/**
 * The simulator's HTTP client of this service: the administrator API's driver routes (to create
 * its drivers and take back their tokens after a restart) and the courier API, exactly as a
 * driver app calls it. Global fetch, JSON, a timeout on every call. An error names the call, the
 * HTTP status and the envelope's code, never a token (nor a URL: ids only ever appear in paths).
 */

/** The bodies are the contracts' (the same schemas the service answers with). */
export type DriverView = Driver;
export type CourierMe = CourierState;
export type CourierEventType = CourierEventReport['eventType'];
type Vehicle = Driver['vehicle'];

export interface NewSimulatedDriver {
  name: string;
  phone: string;
  vehicle: Vehicle;
  position: { lat: number; lng: number };
}

/** A call answered with an error status: which call, the status and the envelope's code. */
export class CourierApiError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(`${call} answered HTTP ${status}${code ? ` ${code}` : ''}`);
    this.name = 'CourierApiError';
  }
}

export interface CourierClientOptions {
  /** This service's own address, e.g. http://127.0.0.1:4105 (no trailing slash needed). */
  baseUrl: string;
  /** Sent with every call (the service's pass past its own rate limits: the simulator is its own client). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Aborts every call in flight (the simulator's stop). */
  signal?: AbortSignal;
}

const id = encodeURIComponent;
const FAILURES: Record<string, string> = { TimeoutError: 'timed out', AbortError: 'stopped' };

export class CourierClient {
  private readonly baseUrl: string;

  constructor(private readonly options: CourierClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The service answers (the simulator starts before the HTTP server listens). */
  async healthy(): Promise<boolean> {
    const res = await fetch(`${this.baseUrl}/healthz`, { signal: this.signal() });
    await res.body?.cancel();
    return res.ok;
  }

  createDriver(adminToken: string, accountId: string, driver: NewSimulatedDriver) {
    const body = { ...driver, online: true, simulated: true, shift: null };
    return this.call<{ driver: DriverView; courierToken: string }>(
      'create driver',
      'POST',
      `/admin/v1/platform-accounts/${id(accountId)}/drivers`,
      adminToken,
      body,
    );
  }

  listDrivers(adminToken: string, accountId: string) {
    return this.call<DriverView[]>(
      'list drivers',
      'GET',
      `/admin/v1/platform-accounts/${id(accountId)}/drivers`,
      adminToken,
    );
  }

  /** Takes a driver off (or on) duty without its courier token: an extra simulated driver is retired this way. */
  setDriverOnline(adminToken: string, accountId: string, driverId: string, online: boolean) {
    const path = `/admin/v1/platform-accounts/${id(accountId)}/drivers/${id(driverId)}`;
    return this.call<DriverView>('update driver', 'PATCH', path, adminToken, { online });
  }

  /** A new courier token for the driver; the previous one stops at once. */
  async rotateDriverToken(adminToken: string, accountId: string, driverId: string): Promise<string> {
    const path = `/admin/v1/platform-accounts/${id(accountId)}/drivers/${id(driverId)}/token`;
    return (await this.call<{ courierToken: string }>('rotate driver token', 'POST', path, adminToken)).courierToken;
  }

  me(courierToken: string) {
    return this.call<CourierMe>('courier me', 'GET', '/courier/v1/me', courierToken);
  }

  setAvailability(courierToken: string, online: boolean) {
    return this.call<CourierMe>('courier availability', 'POST', '/courier/v1/me/availability', courierToken, {
      online,
    });
  }

  reportLocation(courierToken: string, position: { lat: number; lng: number }) {
    const body = { lat: position.lat, lng: position.lng };
    return this.call<{ eventsSent: string[] }>(
      'courier location',
      'POST',
      '/courier/v1/me/location',
      courierToken,
      body,
    );
  }

  acceptOffer(courierToken: string, providerDeliveryId: string) {
    const path = `/courier/v1/offers/${id(providerDeliveryId)}/accept`;
    return this.call<CourierDelivery>('courier accept', 'POST', path, courierToken);
  }

  declineOffer(courierToken: string, providerDeliveryId: string) {
    const path = `/courier/v1/offers/${id(providerDeliveryId)}/decline`;
    return this.call<{ declined: true }>('courier decline', 'POST', path, courierToken);
  }

  reportEvent(courierToken: string, providerDeliveryId: string, eventType: CourierEventType, reason?: string) {
    const path = `/courier/v1/deliveries/${id(providerDeliveryId)}/events`;
    const body = reason === undefined ? { eventType } : { eventType, reason };
    return this.call<CourierEventsSent>(`courier ${eventType}`, 'POST', path, courierToken, body);
  }

  private signal(): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 5_000);
    return this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
  }

  private async call<T>(name: string, method: string, path: string, token: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      ...this.options.headers,
      authorization: `Bearer ${token}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: this.signal(),
      });
      text = await res.text();
    } catch (error) {
      // fetch's errors carry the address and the cause (refused, timed out), never the headers.
      throw new Error(`${name} failed: ${FAILURES[(error as Error).name] ?? 'no answer'}`, { cause: error });
    }
    if (!res.ok) throw new CourierApiError(name, res.status, envelopeCode(text));
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${name} answered HTTP ${res.status} with a body that is not JSON`);
    }
  }
}

function envelopeCode(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code.slice(0, 100) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The administrator token source of the simulator: a short-lived HS256 JWT (role admin, sub
 * courier-simulator) under PROVIDER_ADMIN_TOKEN_SECRET, minted per call (an HMAC: cheap, and
 * never stored).
 */
export const adminTokenSource =
  (secret: Buffer, lifetimeMs = 5 * 60_000) =>
  (): string =>
    signBearerToken(secret, { role: 'admin', sub: 'courier-simulator' }, new Date(Date.now() + lifetimeMs));
