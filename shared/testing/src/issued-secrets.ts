import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRedactedKey, REDACTED } from '@marketplace/logging';
import { repoRoot } from './stack';

/*
 * The exact secrets a test run issued or saw (API keys, signing secrets, bearer and OAuth tokens,
 * courier and callback tokens, driver phone numbers), so the audit at the end of the run can look
 * for each value itself in every log and metrics file, beyond the shapes of secret-patterns.ts (a
 * callback token or an opaque OAuth token has no shape). Each process appends to a file of its
 * own (jest runs test files in several workers), readable by its owner only; .test-results/ is
 * ignored by Git and scripts/test.mjs empties the folder before a run.
 */

/** Where the issued secrets of a run are recorded, one JSON line `{ kind, value }` each. */
export const ISSUED_SECRETS_DIR = join(repoRoot, '.test-results', 'issued-secrets');

export interface IssuedSecret {
  kind: string;
  value: string;
}

/** Shorter values (a two-digit token, an empty string) would match anywhere: not recorded. */
export const MIN_SECRET_LENGTH = 8;

const seen = new Set<string>();

/**
 * Records a secret the run issued or saw. For `<id>.<secret>` credentials (`mpk_`, `pdk_`, `pdd_`)
 * the secret part is recorded too: the id alone is public and may be logged, the rest never.
 */
export function recordIssuedSecret(kind: string, value: string | null | undefined, dir = ISSUED_SECRETS_DIR): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || value === REDACTED) return;
  const entries: IssuedSecret[] = [{ kind, value }];
  const credential = /^(?:mpk|pdk|pdd)_[A-Za-z0-9_-]+\.(.+)$/.exec(value);
  if (credential?.[1] && credential[1].length >= MIN_SECRET_LENGTH)
    entries.push({ kind: `${kind} (secret part)`, value: credential[1] });
  const fresh = entries.filter((e) => !seen.has(`${dir}\n${e.value}`));
  if (fresh.length === 0) return;
  for (const e of fresh) seen.add(`${dir}\n${e.value}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(join(dir, `${process.pid}.jsonl`), fresh.map((e) => `${JSON.stringify(e)}\n`).join(''), {
      mode: 0o600,
    });
  } catch {
    // Recording must never fail a test: the audit then only has the patterns for this value.
  }
}

/** Every secret recorded so far (by any process), each value once. */
export function readIssuedSecrets(dir = ISSUED_SECRETS_DIR): IssuedSecret[] {
  if (!existsSync(dir)) return [];
  const byValue = new Map<string, IssuedSecret>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as Partial<IssuedSecret>;
        if (typeof entry.kind === 'string' && typeof entry.value === 'string' && !byValue.has(entry.value))
          byValue.set(entry.value, { kind: entry.kind, value: entry.value });
      } catch {
        // a line cut short by a killed process: skip it
      }
    }
  }
  return [...byValue.values()];
}

/** What a value under a sensitive key is called in reports (never the value itself). */
function kindOf(key: string, value: string): string {
  const k = key.toLowerCase().replace(/[-_]/g, '');
  if (value.startsWith('pdk_')) return 'provider platform API key';
  if (value.startsWith('pdd_')) return 'courier token';
  if (value.startsWith('pwhsec_')) return 'provider webhook signing secret';
  if (value.startsWith('mpk_')) return 'API key';
  if (value.startsWith('whsec_')) return 'webhook signing secret';
  if (k.includes('phone')) return 'driver phone number';
  if (k === 'accesstoken' || k === 'refreshtoken' || k === 'idtoken') return 'OAuth token';
  if (k === 'clientsecret') return 'OAuth client secret';
  if (k === 'trackingurl') return 'tracking URL';
  if (k.startsWith('tracking')) return 'tracking token';
  if (k.startsWith('callback')) return 'callback token';
  if (k === 'token' || k === 'authorization') return 'bearer token';
  return `secret (${key})`;
}

/**
 * Records every string a request or response body holds under a key the logger redacts (the
 * central list of @marketplace/logging: apiKey, webhookSigningSecret, courierToken, token,
 * trackingUrl, phone, ...), so the shared test clients catch what any test mints or sends without
 * each test saying so. Names and other personal data that are not secrets are left out.
 */
export function recordSecretsIn(body: unknown, dir = ISSUED_SECRETS_DIR, depth = 0): void {
  if (depth > 12 || body === null || typeof body !== 'object') return;
  if (Array.isArray(body)) {
    for (const item of body) recordSecretsIn(item, dir, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string' && isRecordedKey(key)) {
      recordIssuedSecret(kindOf(key, value), value, dir);
      const tracking = /trk_[A-Za-z0-9_-]{22}/.exec(value);
      if (tracking) recordIssuedSecret('tracking token', tracking[0], dir);
    } else recordSecretsIn(value, dir, depth + 1);
  }
}

/** Sensitive keys whose values are secrets; of the personal data only phone numbers. */
function isRecordedKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_]/g, '');
  if (k.includes('phone')) return k !== 'customerphone';
  return (
    isRedactedKey(key) &&
    !['drivername', 'driverlat', 'driverlng', 'driver', 'customername', 'customeremail'].includes(k)
  );
}
