import { parseArgs } from 'node:util';

/** A command line that cannot be run: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `marketplace-webhooks listen: forwards your installation's webhooks to a local URL while you work

Usage:
  marketplace-webhooks listen --base-url URL --api-key KEY --webhook-secret SECRET --forward-to URL [options]

  --base-url URL          the marketplace's origin (the Partner API is under URL/api/partner/v1)
                          (or env MARKETPLACE_BASE_URL)
  --api-key KEY           the installation's API key, KEY_ID.API_SECRET (or env MARKETPLACE_API_KEY)
  --webhook-secret SECRET the installation's webhook signing secret, whsec_... (or env MARKETPLACE_WEBHOOK_SECRET)
                          Prefer the environment variables: a command line is visible to other users.
  --forward-to URL        where each webhook is POSTed, for example http://localhost:3000/hooks
  --since now|TIME        forward deliveries created from then on: now (the default: only new ones) or
                          an ISO 8601 time (earlier ones too, oldest first)
  --interval SECONDS      seconds between polls of the delivery log (default 5: 12 of the
                          installation's 60 requests a minute, plus one read per new webhook, so
                          your backend keeps the rest); lower it when nothing else calls the API.

Each webhook is sent with its body byte for byte and freshly signed with your webhook signing secret
(X-Marketplace-* and Standard Webhooks headers), so your verifier works unchanged. One line per
forward: time, event type, delivery id, your endpoint's status. Stop with Ctrl-C.

Exit codes: 0 stopped; 1 the API key was refused; 2 a usage error.
`;

export interface ListenSettings {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  forwardTo: string;
  /** `now`: only deliveries created after the first poll; a time: those created from then on. */
  since: 'now' | Date;
  intervalMs: number;
}

function absoluteUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} is not an absolute URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${name} must be http or https`);
  return value;
}

function sinceOf(value: string | undefined): 'now' | Date {
  if (value === undefined || value === 'now') return 'now';
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new UsageError(`--since must be now or an ISO 8601 time: ${value}`);
  return time;
}

function required(name: string, value: string | undefined, env: string): string {
  if (!value) throw new UsageError(`--${name} is required${env ? ` (or env ${env})` : ''}`);
  return value;
}

/**
 * The command line (`listen` and its options) and the environment, as settings; undefined for
 * `--help`. A missing or malformed option is a UsageError.
 */
export function listenSettings(argv: readonly string[], env: NodeJS.ProcessEnv): ListenSettings | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return undefined;
  if (positionals.length !== 1 || positionals[0] !== 'listen')
    throw new UsageError(
      positionals.length === 0 ? 'name a command: listen' : `unknown command: ${positionals.join(' ')}`,
    );
  const interval = Number(values.interval ?? '5');
  if (!Number.isFinite(interval) || interval < 0.1 || interval > 3600)
    throw new UsageError('--interval must be a number of seconds from 0.1 to 3600');
  return {
    baseUrl: absoluteUrl(
      'base-url',
      required('base-url', values['base-url'] ?? env.MARKETPLACE_BASE_URL, 'MARKETPLACE_BASE_URL'),
    ).replace(/\/+$/, ''),
    apiKey: required('api-key', values['api-key'] ?? env.MARKETPLACE_API_KEY, 'MARKETPLACE_API_KEY'),
    webhookSecret: required(
      'webhook-secret',
      values['webhook-secret'] ?? env.MARKETPLACE_WEBHOOK_SECRET,
      'MARKETPLACE_WEBHOOK_SECRET',
    ),
    forwardTo: absoluteUrl('forward-to', required('forward-to', values['forward-to'], '')),
    since: sinceOf(values.since),
    intervalMs: Math.round(interval * 1000),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'forward-to': { type: 'string' },
      since: { type: 'string' },
      interval: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
