// Command-line options of the demo seed and the admin token it calls the gateway with.
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readStackEnv, root, runningServices, stackDir } from '../../services.mjs';
import { SeedError } from './api.mjs';

export const USAGE = `usage: npm run demo:seed -- --webhook-url URL --out FILE [--gateway URL] [--admin-token TOKEN]
                          [--provider-url URL]

  --webhook-url URL   where the demo apps receive their webhooks and the demo platform account of
                      provider-delivery its callbacks (absolute URL; https, or http on loopback when
                      the services allow it, as the local settings do)
  --out FILE          the fixture file to write (JSON, mode 0600: it holds API keys and secrets)
  --gateway URL       the gateway-auth service (default: where \`npm start\` runs it, http://127.0.0.1:4101)
  --admin-token TOKEN an administrator bearer token, for a deployed cluster (prefer the environment
                      variable MARKETPLACE_ADMIN_TOKEN: npm echoes the command line); by default one
                      is minted from MARKETPLACE_TOKEN_SECRET (environment, else .stack/local.env)
  --provider-url URL  the provider-delivery service (default: where \`npm start\` runs it,
                      http://127.0.0.1:4105); its administrator token is PROVIDER_ADMIN_TOKEN when set
                      (a deployed cluster), else minted from PROVIDER_ADMIN_TOKEN_SECRET (environment,
                      else .stack/local.env)

Relative --out paths are relative to the directory the command was typed in.`;

const usageError = (message) => new SeedError(`${message} (usage: npm run demo:seed -- --help)`, { exitCode: 2 });

/** Admin tokens minted here live this long: the seed takes seconds. */
const ADMIN_TOKEN_TTL_SECONDS = 15 * 60;

export function parseOptions(argv, env = process.env) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'webhook-url': { type: 'string' },
        out: { type: 'string' },
        gateway: { type: 'string' },
        'admin-token': { type: 'string' },
        'provider-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw usageError(error.message);
  }
  if (values.help) return { help: true };
  if (!values['webhook-url']) throw usageError('--webhook-url is required');
  if (!values.out) throw usageError('--out is required');
  return {
    help: false,
    webhookUrl: absoluteUrl('--webhook-url', values['webhook-url']),
    gatewayUrl: baseUrl('--gateway', values.gateway ?? defaultUrl('gateway-auth', '--gateway')),
    providerUrl: baseUrl('--provider-url', values['provider-url'] ?? defaultUrl('provider-delivery', '--provider-url')),
    outFile: outPath(values.out, env),
    adminToken: values['admin-token'] ?? env.MARKETPLACE_ADMIN_TOKEN ?? undefined,
    providerAdminToken: env.PROVIDER_ADMIN_TOKEN || undefined,
  };
}

function absoluteUrl(option, raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`${option} must be an absolute URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw usageError(`${option} must be an http(s) URL, got ${JSON.stringify(raw)}`);
  return raw;
}

/** Where `npm start` runs a service (scripts/services.json, or what it recorded). */
function defaultUrl(name, option) {
  const service = runningServices().find((s) => s.name === name);
  if (!service) throw new SeedError(`${name} is not among the services in scripts/services.json; pass ${option} URL`);
  return service.url;
}

/** A service's base URL without a trailing slash; its APIs live under it. */
function baseUrl(option, raw) {
  const url = new URL(absoluteUrl(option, raw));
  if (url.search || url.hash || url.username || url.password)
    throw usageError(`${option} must be a plain base URL (no query, fragment or credentials)`);
  return url.href.replace(/\/+$/, '');
}

/** Relative paths are relative to where the command was typed (npm runs scripts from the repository root). */
function outPath(raw, env) {
  if (isAbsolute(raw)) return raw;
  const base = env.npm_lifecycle_event === 'demo:seed' && env.INIT_CWD ? env.INIT_CWD : process.cwd();
  return resolve(base, raw);
}

/**
 * The administrator token: given (--admin-token, MARKETPLACE_ADMIN_TOKEN), else an HS256 JWT
 * `{ role: 'admin', sub, iat, exp }` signed with MARKETPLACE_TOKEN_SECRET (the environment wins, as
 * with `npm start`; else the local settings in .stack/local.env). Never printed.
 */
export function adminToken(options, env = process.env) {
  if (options.adminToken) return options.adminToken;
  let secret = env.MARKETPLACE_TOKEN_SECRET;
  if (!secret && existsSync(join(stackDir, 'local.env'))) secret = readStackEnv().MARKETPLACE_TOKEN_SECRET;
  if (!secret) {
    throw new SeedError(
      'no admin token: set MARKETPLACE_TOKEN_SECRET, pass --admin-token (or MARKETPLACE_ADMIN_TOKEN), or run `npm run stack:up` to create .stack/local.env',
    );
  }
  const key = Buffer.from(secret, 'base64');
  if (key.length < 32) throw new SeedError('MARKETPLACE_TOKEN_SECRET must be base64 of at least 32 bytes');
  const now = Math.floor(Date.now() / 1000);
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ role: 'admin', sub: 'demo-seed', iat: now, exp: now + ADMIN_TOKEN_TTL_SECONDS })}`;
  return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
}

/**
 * provider-delivery's administrator token (its own key, not the gateway's): PROVIDER_ADMIN_TOKEN
 * when set, else an HS256 JWT `{ role: 'admin', sub }` signed with PROVIDER_ADMIN_TOKEN_SECRET (the
 * environment wins, else .stack/local.env) by the shared bearer-token code the service checks it
 * with (shared/identity/dist: `npm run build`). Never printed.
 */
export function providerAdminToken(
  options = {},
  env = process.env,
  { sub = 'demo-seed', ttlSeconds = ADMIN_TOKEN_TTL_SECONDS } = {},
) {
  if (options.providerAdminToken) return options.providerAdminToken;
  let secret = env.PROVIDER_ADMIN_TOKEN_SECRET;
  if (!secret && existsSync(join(stackDir, 'local.env'))) secret = readStackEnv().PROVIDER_ADMIN_TOKEN_SECRET;
  if (!secret) {
    throw new SeedError(
      'no provider administrator token: set PROVIDER_ADMIN_TOKEN_SECRET or PROVIDER_ADMIN_TOKEN, or run `npm run stack:up` to create .stack/local.env',
    );
  }
  const key = Buffer.from(secret, 'base64');
  if (key.length < 32) throw new SeedError('PROVIDER_ADMIN_TOKEN_SECRET must be base64 of at least 32 bytes');
  const module = join(root, 'shared', 'identity', 'dist', 'bearer-token.js');
  if (!existsSync(module)) throw new SeedError('shared/identity/dist is missing: run `npm run build` first');
  const { signBearerToken } = createRequire(import.meta.url)(module);
  return signBearerToken(key, { role: 'admin', sub }, new Date(Date.now() + ttlSeconds * 1000));
}
