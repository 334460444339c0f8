import { randomInt, randomUUID } from 'node:crypto';
import type { Answer } from './cluster';
import type { ApiDefinition, ApiName, ErrorFormat, Operation } from './operations';

/*
 * One probe: an operation called by one owner with another owner's identifier, then with a random
 * identifier of the same shape that nothing has. Both answers must be the documented one (404
 * unless said otherwise), in the API's error shape, equal but for per-request fields, and the first
 * must hold nothing of the other owner's resources.
 */

/** Calls a full URL as one owner (its credential, and an Idempotency-Key where the API wants one). */
export type Caller = (method: string, url: string, body?: unknown) => Promise<Answer>;

export interface Probe {
  /** Who calls with whose identifier, for the report ("B1 with A1's order"). */
  what: string;
  api: ApiName;
  /** `METHOD /path/{param}` as the API's document writes it. */
  op: string;
  caller: Caller;
  /** The other owner's identifier. */
  foreign: string;
  /** The request with `id` (the foreign one, or the random one) where the probe puts it. */
  request(id: string): { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  /** The documented answer when it is not 404 (the same for an unknown identifier). */
  status?: number;
  /** The answer is a success (a list filtered by the id): compared, not checked as an error. */
  success?: boolean;
}

/** Fields that differ from request to request and say nothing about the resource. */
const PER_REQUEST = ['instance', 'requestId', 'traceId'];
const ALLOWED_KEYS: Record<ErrorFormat, string[]> = {
  // No status_detail (it would carry the state of the other owner's order) in a probe's answer.
  problem: ['type', 'title', 'status', 'detail', 'code', 'instance', 'errors'],
  envelope: ['code', 'message', 'retryable', 'fieldErrors'],
};

/** A random identifier shaped like `id`: a UUID for a UUID, otherwise the same prefix and characters of the same kinds. */
export function lookalike(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return randomUUID();
  const [, prefix = '', rest = id] = /^([a-z]+_)?(.*)$/.exec(id) ?? [];
  const pick = (set: string) => set[randomInt(set.length)]!;
  return (
    prefix +
    [...rest]
      .map((c) =>
        /[0-9]/.test(c)
          ? pick('0123456789')
          : /[a-z]/.test(c)
            ? pick('abcdefghijklmnopqrstuvwxyz')
            : /[A-Z]/.test(c)
              ? pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ')
              : c,
      )
      .join('')
  );
}

function urlOf(def: ApiDefinition, path: string, request: ReturnType<Probe['request']>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${path}`);
    return encodeURIComponent(value);
  });
  const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : '';
  return def.base + filled + query;
}

/** The body without per-request fields, and with the probed identifier written as <id>. */
function normalized(answer: Answer, id: string): string {
  const body =
    answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body) ? { ...answer.body } : answer.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) for (const key of PER_REQUEST) delete body[key];
  return JSON.stringify({ status: answer.status, contentType: answer.contentType, body: body ?? answer.text })
    .split(id)
    .join('<id>');
}

function shapeProblems(format: ErrorFormat, answer: Answer): string[] {
  const problems: string[] = [];
  const body = answer.body;
  if (format === 'problem' && !answer.contentType.startsWith('application/problem+json'))
    problems.push(`content type ${answer.contentType}, not application/problem+json`);
  if (format === 'envelope' && !answer.contentType.startsWith('application/json'))
    problems.push(`content type ${answer.contentType}, not application/json`);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [...problems, `body ${answer.text.slice(0, 200)}`];
  const extra = Object.keys(body).filter((k) => !ALLOWED_KEYS[format].includes(k));
  if (extra.length > 0) problems.push(`fields beyond the error shape: ${extra.join(', ')}`);
  if (typeof body.code !== 'string') problems.push('no code');
  if (format === 'problem' && (body.status !== answer.status || typeof body.detail !== 'string'))
    problems.push('status or detail missing');
  if (format === 'envelope' && (typeof body.message !== 'string' || typeof body.retryable !== 'boolean'))
    problems.push('message or retryable missing');
  return problems;
}

/** Runs a probe; returns what is wrong with it (nothing when it holds). */
export async function runProbe(
  probe: Probe,
  apis: Record<ApiName, ApiDefinition>,
  operations: Operation[],
  markers: string[],
): Promise<string[]> {
  const at = `${probe.what}: ${probe.op}`;
  const operation = operations.find((o) => o.api === probe.api && o.key === probe.op);
  if (!operation) return [`${at}: the ${probe.api} document has no such operation`];
  const expected = probe.status ?? 404;
  const failures: string[] = [];
  if (!operation.statuses.includes(expected)) failures.push(`${at}: the document does not list ${expected}`);
  const [method, path] = probe.op.split(' ') as [string, string];
  const ask = (id: string) => {
    const request = probe.request(id);
    return probe.caller(method, urlOf(apis[probe.api], path, request), request.body);
  };
  const random = lookalike(probe.foreign);
  const foreign = await ask(probe.foreign);
  const unknown = await ask(random);
  for (const [which, answer] of [
    ["the other owner's id", foreign],
    ['a random id', unknown],
  ] as const) {
    if (answer.status !== expected)
      failures.push(`${at}: ${answer.status} with ${which}, not ${expected}: ${answer.text.slice(0, 300)}`);
    else if (!probe.success)
      failures.push(...shapeProblems(apis[probe.api].format, answer).map((p) => `${at}: with ${which}: ${p}`));
  }
  const [a, b] = [normalized(foreign, probe.foreign), normalized(unknown, random)];
  if (a !== b) failures.push(`${at}: the answers differ:\n  other owner's id: ${a}\n  random id:        ${b}`);
  const leaked = markers.filter((m) => m !== probe.foreign && foreign.text.includes(m));
  if (leaked.length > 0) failures.push(`${at}: the answer holds the other owner's ${leaked.join(', ')}`);
  return failures;
}
