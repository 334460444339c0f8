import { performance } from 'node:perf_hooks';
import type { Exchange } from '../model';
import { PLATFORM_LIMITS } from '../spec';
import type { CallOptions, ProviderClient } from '../test-api';
import { NoAnswerError, send, type RawAnswer } from './send';

/** How long past the platform's 15 s the kit still waits, so an overrun is measured, not guessed. */
export const TIMEOUT_MARGIN_MS = 5_000;
const PLATFORM_SECONDS = PLATFORM_LIMITS.timeoutMs / 1000;

export interface ProviderClientSettings {
  baseUrl: string;
  apiKey: string;
  /** Called with every exchange (the test's evidence and the run's list). */
  record: (exchange: Exchange) => void;
}

/** The provider as the platform calls it: JSON in, JSON out, Bearer key, never a redirect followed. */
export function createProviderClient(settings: ProviderClientSettings): ProviderClient {
  const base = settings.baseUrl.replace(/\/+$/, '');
  return {
    async call(method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
      const body = requestBody(options);
      const headers = requestHeaders(options, settings.apiKey, body);
      const timeoutMs = options.timeoutMs ?? PLATFORM_LIMITS.timeoutMs + TIMEOUT_MARGIN_MS;
      const startedAt = new Date().toISOString();
      const started = performance.now();
      const base_: Omit<Exchange, 'status' | 'responseHeaders' | 'responseBody' | 'responseBytes' | 'durationMs'> = {
        method,
        url: `${base}${path}`,
        requestHeaders: headers,
        requestBody: body === null ? null : body.toString('utf8'),
        startedAt,
      };
      let exchange: Exchange;
      try {
        const answer = await send(new URL(`${base}${path}`), method, headers, body, timeoutMs);
        exchange = answered(base_, answer, Math.round(performance.now() - started));
      } catch (error) {
        exchange = unanswered(base_, error, Math.round(performance.now() - started), timeoutMs);
      }
      settings.record(exchange);
      return exchange;
    },
  };
}

function requestBody(options: CallOptions): Buffer | null {
  if (options.rawBody !== undefined)
    return Buffer.isBuffer(options.rawBody) ? options.rawBody : Buffer.from(options.rawBody, 'utf8');
  if (options.body !== undefined) return Buffer.from(JSON.stringify(options.body), 'utf8');
  return null;
}

function requestHeaders(options: CallOptions, apiKey: string, body: Buffer | null): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const auth = options.auth ?? 'key';
  if (auth === 'key') headers.Authorization = `Bearer ${apiKey}`;
  else if (auth !== 'none') headers.Authorization = auth;
  if (body !== null) {
    const contentType = options.contentType === undefined ? 'application/json; charset=utf-8' : options.contentType;
    if (contentType !== null) headers['Content-Type'] = contentType;
    headers['Content-Length'] = String(body.length);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    headers[name] = value;
  }
  return headers;
}

type ExchangeStart = Omit<Exchange, 'status' | 'responseHeaders' | 'responseBody' | 'responseBytes' | 'durationMs'>;

function answered(start: ExchangeStart, answer: RawAnswer, durationMs: number): Exchange {
  const text = answer.body.toString('utf8');
  const exchange: Exchange = {
    ...start,
    status: answer.status,
    responseHeaders: answer.headers,
    responseBody: text,
    responseBytes: answer.bytes,
    durationMs,
  };
  const json = parseJson(text);
  if (json !== undefined) exchange.json = json;
  if (durationMs > PLATFORM_LIMITS.timeoutMs)
    exchange.error = `no answer within ${PLATFORM_SECONDS} s (answered after ${(durationMs / 1000).toFixed(1)} s)`;
  return exchange;
}

function unanswered(start: ExchangeStart, error: unknown, durationMs: number, timeoutMs: number): Exchange {
  let message: string;
  if (error instanceof NoAnswerError) {
    message =
      timeoutMs < PLATFORM_LIMITS.timeoutMs
        ? `no answer within ${timeoutMs / 1000} s`
        : `no answer within ${PLATFORM_SECONDS} s (gave up after ${(timeoutMs / 1000).toFixed(0)} s)`;
  } else {
    const code = (error as { code?: unknown }).code;
    message = `${error instanceof Error ? error.message : String(error)}${typeof code === 'string' && !String(error).includes(code) ? ` (${code})` : ''}`;
  }
  return {
    ...start,
    status: null,
    responseHeaders: {},
    responseBody: null,
    responseBytes: 0,
    durationMs,
    error: message,
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
