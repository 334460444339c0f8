import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a handler answers: a status and a JSON body (none for a redirect). */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** "Error envelope": code, message, retryable, and fieldErrors for invalid fields. */
export const errorAnswer = (
  status: number,
  code: string,
  message: string,
  fieldErrors?: Record<string, string[]>,
): Answer => ({
  status,
  body: { code, message, retryable: status >= 500 || status === 429, ...(fieldErrors ? { fieldErrors } : {}) },
});

export const malformed = (): Answer => errorAnswer(400, 'malformed_request', 'The body is not valid JSON.');
export const invalid = (message: string, fieldErrors?: Record<string, string[]>): Answer =>
  errorAnswer(422, 'validation_failed', message, fieldErrors);
export const notFound = (): Answer => errorAnswer(404, 'not_found', 'No such delivery.');

/** Request bodies over 1 MiB are refused (413); the rest is still read, so the client sees the answer. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface RequestBody {
  text: string;
  tooLarge: boolean;
}

export function readBody(req: IncomingMessage): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

export type Json = { ok: true; value: unknown } | { ok: false };
export function parseJson(text: string): Json {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function writeAnswer(res: ServerResponse, answer: Answer): void {
  const payload = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(answer.body), 'utf8');
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body !== undefined) res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', payload.length);
  res.end(payload);
}
