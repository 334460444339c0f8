import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readCapped } from './read-capped';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  bytes: number;
}

/** Thrown when the kit gave up waiting for an answer. */
export class NoAnswerError extends Error {
  constructor(readonly afterMs: number) {
    super(`no answer after ${afterMs} ms`);
    this.name = 'NoAnswerError';
  }
}

export const flattenHeaders = (headers: IncomingHttpHeaders): Record<string, string> => {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
};

/**
 * One HTTP request with node:http(s), so the kit controls every header and sees every status
 * (a redirect is an answer like any other: nothing is followed) and the raw body bytes.
 */
export function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | null,
  timeoutMs: number,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new NoAnswerError(timeoutMs));
    }, timeoutMs);
    const fail = (error: unknown): void => {
      clearTimeout(timer);
      reject(timedOut ? new NoAnswerError(timeoutMs) : error instanceof Error ? error : new Error(String(error)));
    };
    request.on('error', fail);
    request.on('response', (response) => {
      readCapped(response).then((read) => {
        clearTimeout(timer);
        if (timedOut) return reject(new NoAnswerError(timeoutMs));
        resolve({ status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), ...read });
      }, fail);
    });
    request.end(body ?? undefined);
  });
}
