import type { SafeHttpClient } from '@marketplace/http';

/** A call that got no HTTP answer (refused, timed out, DNS, TLS, an address refused by policy). */
export class NoAnswerError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'NoAnswerError';
  }
}

/**
 * `fetch` over the SafeHttpClient, for the provider-contract client (openapi-fetch): the address is
 * resolved, checked and pinned, redirects are not followed (a 3xx comes back as it is), one
 * deadline covers the whole call, and at most `maxResponseBytes` of an answer are read (a longer
 * one is no answer: the contract's platform accepts at most 5 MiB).
 */
export function safeFetch(http: SafeHttpClient, timeoutMs: number, maxResponseBytes: number): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const bytes = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const result = await http.request(request.url, {
      method: request.method,
      headers,
      ...(bytes ? { body: { bytes, contentType: headers['content-type'] ?? 'application/json; charset=utf-8' } } : {}),
      timeoutMs,
      maxResponseBytes,
    });
    if (result.kind === 'network') throw new NoAnswerError(`no answer (${result.errorClass}): ${result.message}`);
    if (result.truncated) throw new NoAnswerError(`the answer is larger than ${maxResponseBytes} bytes`);
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(result.headers))
      if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    const bodiless = result.status === 204 || result.status === 304 || result.status < 200;
    return new Response(bodiless ? null : result.body, { status: result.status, headers: answerHeaders });
  };
}
