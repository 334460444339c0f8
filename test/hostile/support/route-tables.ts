import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DeclaredRoute } from '@marketplace/http';
import { repoRoot } from '@marketplace/testing';

/*
 * The services' route tables, as each service prints them (`node dist/main.js --routes`: a black
 * box, as the root tests must treat services), and the spellings of a route's path that must never
 * reach it: other cases, doubled and trailing slashes, encoded slashes, letters and dots, dot
 * segments, `;params`, backslashes.
 */

export const SERVICES = [
  'gateway-auth',
  'catalog',
  'ordering-pricing',
  'delivery-assignment',
  'provider-delivery',
  'webhook-sender',
] as const;
export type ServiceName = (typeof SERVICES)[number];

export type RouteTables = Record<ServiceName, DeclaredRoute[]>;

/** Each service's table, read from its built main.js (npm run build first). */
export async function loadRouteTables(): Promise<RouteTables> {
  const entries = await Promise.all(
    SERVICES.map(async (service) => {
      const main = join(repoRoot, 'services', service, 'dist', 'main.js');
      if (!existsSync(main)) throw new Error(`${main} does not exist: run npm run build first`);
      const { stdout } = await promisify(execFile)(process.execPath, [main, '--routes'], {
        cwd: repoRoot,
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '' },
      });
      const routes = JSON.parse(stdout) as DeclaredRoute[];
      if (!Array.isArray(routes)) throw new Error(`${service} --routes printed no list: ${stdout.slice(0, 200)}`);
      return [service, routes] as const;
    }),
  );
  return Object.fromEntries(entries) as RouteTables;
}

/** One segment of a route pattern: a literal, or a parameter (`:id`, `*rest`, `{*rest}`). */
interface Segment {
  literal: boolean;
  text: string;
}

/** A route's path with its parameters filled (random UUIDs; a token-shaped value for `:token`). */
export interface FilledPath {
  path: string;
  segments: Segment[];
}

function paramValue(name: string): string {
  if (/token/i.test(name)) return randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '');
  return randomUUID();
}

export function fillPath(pattern: string): FilledPath {
  const parts = pattern.split('/').slice(1);
  const segments = parts.map((part): Segment => {
    // path-to-regexp 8: `:name`, `*name` and optional groups `{…}` (one segment each here).
    const bare = part.replace(/[{}]/g, '');
    const param = /^[:*]([A-Za-z0-9_]+)$/.exec(bare);
    if (param) return { literal: false, text: paramValue(param[1]!) };
    if (/[:*{}]/.test(part)) throw new Error(`cannot fill the segment "${part}" of ${pattern}`);
    return { literal: true, text: part };
  });
  return { path: `/${segments.map((s) => s.text).join('/')}`, segments };
}

export interface Spelling {
  name: string;
  path: string;
}

/** `Admin` for `admin`: the first letter in the other case. */
function mixedCase(text: string): string {
  const at = text.search(/[A-Za-z]/);
  if (at < 0) return text;
  const c = text[at]!;
  return text.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + text.slice(at + 1);
}

/** The first letter percent-encoded: `%61dmin` for `admin`. */
function encodedLetter(text: string): string {
  const at = text.search(/[A-Za-z]/);
  if (at < 0) return text;
  return `${text.slice(0, at)}%${text.charCodeAt(at).toString(16)}${text.slice(at + 1)}`;
}

/**
 * Every spelling of the filled path that is not the path itself. The case variants are of literal
 * segments (one upper-case and one mixed-case variant per segment); the others each change the
 * path once, near its start (where a prefix check would look) or its end.
 */
export function spellingsOf(filled: FilledPath): Spelling[] {
  const segs = filled.segments.map((s) => s.text);
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const replaced = (i: number, text: string) => join(segs.map((s, j) => (j === i ? text : s)));
  const last = segs.length - 1;
  const firstLiteral = filled.segments.findIndex((s) => s.literal);
  const lastLiteral = filled.segments.map((s) => s.literal).lastIndexOf(true);
  const head = segs[0]!;
  const tail = segs.slice(1);
  const out: Spelling[] = [];
  filled.segments.forEach((segment, i) => {
    if (!segment.literal) return;
    const upper = segment.text.toUpperCase();
    if (upper !== segment.text) out.push({ name: `upper-case segment ${i + 1}`, path: replaced(i, upper) });
    const mixed = mixedCase(segment.text);
    if (mixed !== segment.text && mixed !== upper)
      out.push({ name: `mixed-case segment ${i + 1}`, path: replaced(i, mixed) });
  });
  if (tail.length > 0) {
    out.push(
      { name: 'doubled slash', path: `/${head}//${tail.join('/')}` },
      { name: '%2F for a slash', path: `/${head}%2F${tail.join('/')}` },
      { name: '/./ inserted', path: `/${head}/./${tail.join('/')}` },
      { name: '/x/../ inserted', path: `/${head}/x/../${tail.join('/')}` },
      { name: '/x/%2e%2e/ inserted', path: `/${head}/x/%2e%2e/${tail.join('/')}` },
      { name: '/%2e/ inserted', path: `/${head}/%2e/${tail.join('/')}` },
      { name: 'backslash for a slash', path: `/${head}\\${tail.join('/')}` },
      { name: '%5c for a slash', path: `/${head}%5c${tail.join('/')}` },
    );
  }
  out.push(
    { name: 'leading doubled slash', path: `/${join(segs)}` },
    { name: 'trailing slash', path: `${join(segs)}/` },
    { name: '%2f for the last slash', path: `${join(segs.slice(0, last))}%2f${segs[last]}` },
    { name: ';param on the first segment', path: replaced(0, `${head};x=1`) },
    { name: ';param on the last segment', path: replaced(last, `${segs[last]};x=1`) },
    { name: '%00 appended', path: `${join(segs)}%00` },
  );
  if (firstLiteral >= 0)
    out.push({
      name: `encoded letter in segment ${firstLiteral + 1}`,
      path: replaced(firstLiteral, encodedLetter(segs[firstLiteral]!)),
    });
  if (lastLiteral > firstLiteral)
    out.push({
      name: `encoded letter in segment ${lastLiteral + 1}`,
      path: replaced(lastLiteral, encodedLetter(segs[lastLiteral]!)),
    });
  return out.filter((s) => s.path !== filled.path);
}

/** The ways to climb one directory in a path, raw and encoded. */
export const CLIMBS = ['../', '%2e%2e/', '.%2e/', '%2e%2e%2f', '..%2f', '..\\', '..%5c', '%2E%2E/', '..;/'] as const;

/**
 * A path under `prefix` that climbs back to the root with `climb` and goes on to `target`: enough
 * climbs to leave every segment of the prefix, so a client or proxy that resolves dot segments
 * lands on `target` itself.
 */
export function traversal(prefix: string, climb: string, target: string): string {
  const depth = prefix.split('/').filter(Boolean).length;
  return `${prefix.replace(/\/$/, '')}/${climb.repeat(depth)}${target.replace(/^\//, '')}`;
}
