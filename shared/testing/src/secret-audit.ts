import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_SECRET_LENGTH, readIssuedSecrets, type IssuedSecret } from './issued-secrets';
import { findSecrets } from './secret-patterns';
import { repoRoot } from './stack';

// For scripts that require this module alone: the run's recorded secrets too.
export { readIssuedSecrets, type IssuedSecret } from './issued-secrets';

/*
 * The secrets audit: every log line, metric scrape and recorded error body of a run, checked for
 * the shapes of secrets (secret-patterns.ts) and for each exact value the run issued or saw
 * (issued-secrets.ts). Findings name the kind and file:line, never the value. `npm test` runs it
 * last (test/audit); a script (a fault-injection run, say) calls `auditSecrets` on its own logs
 * and metric scrapes, from plain JavaScript through the build (`npx tsc -b`):
 *
 *   const require = createRequire(join(repoRoot, 'package.json'));
 *   const { auditSecrets, auditableFiles, describeFinding } = require('./shared/testing/dist/secret-audit.js');
 *   const findings = auditSecrets({ files: auditableFiles(dir, ['.log', '.metrics']), issued: [{ kind, value }, ...] });
 */

export interface SecretFinding {
  file: string;
  line: number;
  kind: string;
  /** `pattern`: the shape of a secret; `exact`: a value the run issued. */
  match: 'pattern' | 'exact';
}

/**
 * Error bodies (4xx and 5xx answers) the shared test clients kept, one JSON line each, for the
 * audit: a secret echoed in an error message is as leaked as one in a log.
 */
export const ERROR_BODIES_DIR = join(repoRoot, '.test-results', 'error-bodies');

/** Keeps an error answer's body for the audit (bounded; never fails the test). */
export function recordErrorBody(status: number, method: string, body: string, dir = ERROR_BODIES_DIR) {
  if (status < 400 || !body) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Not the path: a tracking or callback token in it was sent by the test, not answered.
    const line = JSON.stringify({ status, method, body: body.slice(0, 64 * 1024) });
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${line}\n`, { mode: 0o600 });
  } catch {
    // recording is best effort
  }
}

/**
 * Finds issued values in `text` in one pass (Rabin-Karp on each value's first 8 characters), so
 * thousands of secrets against megabytes of logs stay fast. Reports each (value, line) once.
 */
export function findIssuedSecrets(text: string, issued: IssuedSecret[]): { kind: string; line: number }[] {
  const W = MIN_SECRET_LENGTH;
  const candidates = issued.filter((s) => s.value.length >= W);
  if (candidates.length === 0 || text.length < W) return [];
  const B = 31;
  let BW = 1; // B^(W-1) mod 2^32
  for (let k = 1; k < W; k++) BW = Math.imul(BW, B);
  const hashAt = (s: string, start: number) => {
    let h = 0;
    for (let k = 0; k < W; k++) h = (Math.imul(h, B) + s.charCodeAt(start + k)) | 0;
    return h;
  };
  const byHash = new Map<number, IssuedSecret[]>();
  for (const secret of candidates) {
    const h = hashAt(secret.value, 0);
    const list = byHash.get(h);
    if (list) list.push(secret);
    else byHash.set(h, [secret]);
  }
  const found: { kind: string; line: number }[] = [];
  const reported = new Set<string>();
  let line = 1;
  let counted = 0; // newlines counted up to here
  let h = hashAt(text, 0);
  for (let i = 0; i + W <= text.length; i++) {
    if (i > 0) h = (Math.imul(h - Math.imul(text.charCodeAt(i - 1), BW), B) + text.charCodeAt(i + W - 1)) | 0;
    const list = byHash.get(h);
    if (!list) continue;
    for (const secret of list) {
      if (!text.startsWith(secret.value, i)) continue;
      for (; counted < i; counted++) if (text.charCodeAt(counted) === 10) line++;
      const key = `${line}\n${secret.value}`;
      if (reported.has(key)) continue;
      reported.add(key);
      found.push({ kind: secret.kind, line });
    }
  }
  return found;
}

/** Pattern and exact findings of one text (a file's content, an error body). */
export function scanForSecrets(text: string, issued: IssuedSecret[] = []): Omit<SecretFinding, 'file'>[] {
  return [
    ...findSecrets(text).map((f) => ({ ...f, match: 'pattern' as const })),
    ...findIssuedSecrets(text, issued).map((f) => ({ ...f, match: 'exact' as const })),
  ];
}

/**
 * Audits files (service logs, metric scrapes, error bodies): each finding with its file, line and
 * kind. `issued` defaults to what the run recorded (readIssuedSecrets).
 */
export function auditSecrets(options: { files: string[]; issued?: IssuedSecret[] }): SecretFinding[] {
  const issued = options.issued ?? readIssuedSecrets();
  return options.files.flatMap((file) =>
    scanForSecrets(readFileSync(file, 'utf8'), issued).map((f) => ({ file, ...f })),
  );
}

/** The files of a folder the audit reads: logs, metric scrapes, JSON error bodies (none if missing). */
export function auditableFiles(dir: string, extensions = ['.log', '.metrics', '.jsonl']): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => extensions.some((ext) => name.endsWith(ext)))
    .map((name) => join(dir, name));
}

/** `file:line kind (match)`: how a finding is reported, without the value. */
export function describeFinding(finding: SecretFinding, relativeTo?: string): string {
  const file =
    relativeTo && finding.file.startsWith(relativeTo) ? finding.file.slice(relativeTo.length + 1) : finding.file;
  return `${file}:${finding.line} ${finding.kind} (${finding.match})`;
}

/**
 * Throws when an answer's body (text or parsed JSON) holds a secret: the shape of one, or any of
 * `issued` (default: what the run recorded). The message names kinds only.
 */
export function expectNoSecrets(body: unknown, issued: IssuedSecret[] = readIssuedSecrets()): void {
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
  const findings = scanForSecrets(text, issued);
  if (findings.length > 0)
    throw new Error(
      `the body holds secrets: ${findings.map((f) => `${f.kind} (${f.match}, line ${f.line})`).join(', ')}`,
    );
}
