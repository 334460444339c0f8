import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A command line that cannot be run: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command = 'run' | 'verify' | 'help';
export type Flags = Record<string, string | true>;

const RUN_FLAGS = [
  'base-url',
  'api-key',
  'webhook-secret',
  'fixture',
  'declaration',
  'report',
  'callback-port',
  'callback-host',
  'callback-base-url',
  'signing-key',
  'concurrency',
  'only',
  'spec-url',
  'help',
];
const VERIFY_FLAGS = ['report', 'public-key', 'help'];
const SWITCHES = new Set(['help']);

/** Our provider's declaration, shipped with the kit: resolved from the package, not the working directory. */
export const DEFAULT_DECLARATION = resolve(__dirname, '..', 'declarations', 'provider-delivery.json');

/** `[command] --flag value --flag=value …`; `run` when no command is named. */
export function parseArgs(argv: readonly string[]): { command: Command; flags: Flags } {
  const args = [...argv];
  let command: Command = 'run';
  if (args[0] === 'run' || args[0] === 'verify' || args[0] === 'help') command = args.shift() as Command;
  const flags: Flags = {};
  const known = command === 'verify' ? VERIFY_FLAGS : RUN_FLAGS;
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '-h') return { command: 'help', flags };
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!known.includes(name))
      throw new UsageError(`unknown option --${name}${command === 'verify' ? ' for verify' : ''}`);
    if (SWITCHES.has(name)) flags[name] = true;
    else if (inline !== undefined) flags[name] = inline;
    else if (args.length > 0 && !args[0]!.startsWith('--')) flags[name] = args.shift()!;
    else throw new UsageError(`--${name} needs a value`);
  }
  return { command: flags.help ? 'help' : command, flags };
}

export interface RunSettings {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  declarationFile: string;
  reportDir: string;
  callbackPort?: number;
  callbackHost?: string;
  callbackBaseUrl?: string;
  signingKeyFile?: string;
  concurrency?: number;
  only?: string[];
  specUrl?: string;
}

const text = (flags: Flags, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
};

function integer(flags: Flags, name: string, min: number, max: number): number | undefined {
  const value = text(flags, name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return parsed;
}

/** The `provider` entry of a demo seed fixture: { baseUrl, apiKey, webhookSecret }. */
function fixtureProvider(file: string): Record<string, unknown> {
  let fixture: unknown;
  try {
    fixture = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--fixture ${file}: ${(error as Error).message}`);
  }
  const provider = (fixture as { provider?: unknown } | null)?.provider;
  if (provider === null || typeof provider !== 'object')
    throw new UsageError(`--fixture ${file} has no "provider" entry ({ baseUrl, apiKey, webhookSecret })`);
  return provider as Record<string, unknown>;
}

function absoluteHttpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} must be an absolute URL (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${name} must be an http or https URL`);
  return value.replace(/\/+$/, '');
}

/** The run's settings from the flags, a fixture and the environment (a flag wins, then the fixture, then SDP_API_KEY / SDP_WEBHOOK_SECRET). */
export function runSettings(flags: Flags, env: NodeJS.ProcessEnv = process.env): RunSettings {
  const fixtureFile = text(flags, 'fixture');
  const fixture = fixtureFile ? fixtureProvider(fixtureFile) : {};
  const pick = (flag: string, key: string, envName?: string): string | undefined =>
    text(flags, flag) ??
    (typeof fixture[key] === 'string' ? fixture[key] : undefined) ??
    (envName ? env[envName] : undefined);
  const baseUrl = pick('base-url', 'baseUrl');
  const apiKey = pick('api-key', 'apiKey', 'SDP_API_KEY');
  const webhookSecret = pick('webhook-secret', 'webhookSecret', 'SDP_WEBHOOK_SECRET');
  const reportDir = text(flags, 'report');
  const missing = [
    !baseUrl && '--base-url',
    !apiKey && '--api-key (or SDP_API_KEY)',
    !webhookSecret && '--webhook-secret (or SDP_WEBHOOK_SECRET)',
    !reportDir && '--report',
  ].filter(Boolean);
  if (missing.length > 0)
    throw new UsageError(
      `missing ${missing.join(', ')}${fixtureFile ? '' : ' (or --fixture FILE for the first three)'}`,
    );
  const callbackBaseUrl = text(flags, 'callback-base-url');
  const only = text(flags, 'only');
  return {
    baseUrl: absoluteHttpUrl(baseUrl!, 'base-url'),
    apiKey: apiKey!,
    webhookSecret: webhookSecret!,
    declarationFile: text(flags, 'declaration') ?? DEFAULT_DECLARATION,
    reportDir: reportDir!,
    callbackPort: integer(flags, 'callback-port', 0, 65535),
    callbackHost: text(flags, 'callback-host'),
    callbackBaseUrl: callbackBaseUrl === undefined ? undefined : absoluteHttpUrl(callbackBaseUrl, 'callback-base-url'),
    signingKeyFile: text(flags, 'signing-key'),
    concurrency: integer(flags, 'concurrency', 1, 64),
    only:
      only === undefined
        ? undefined
        : only
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
    specUrl: text(flags, 'spec-url'),
  };
}
