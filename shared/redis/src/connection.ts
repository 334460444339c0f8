import type { RedisOptions } from 'ioredis';
import { bool, hostPortList, loadConfig, optionalFileContents, optionalStr, str, url } from '@marketplace/config';

/**
 * How this deployment reaches Redis: one URL (`redis://` or `rediss://` for TLS), or the Sentinels
 * that name the current primary; an ACL user (`REDIS_USERNAME`, `REDIS_PASSWORD`); TLS with a
 * private CA. The local stack runs an ACL user (scripts/stack/redis.sh), so every test proves it.
 */
export interface RedisConnection {
  url?: string;
  sentinels?: { host: string; port: number }[];
  /** The primary's name the Sentinels know (`sentinel monitor <name> …`). */
  sentinelName?: string;
  sentinelUsername?: string;
  sentinelPassword?: string;
  username?: string;
  password?: string;
  /** TLS to Redis (and to the Sentinels); `ca` (PEM) replaces the system's trusted CAs. */
  tls?: { ca?: string };
}

/** The settings; secrets may come from files (`REDIS_PASSWORD_FILE`, `REDIS_SENTINEL_PASSWORD_FILE`, `REDIS_URL_FILE`). */
export function redisConnectionSettings() {
  return {
    redisUrl: optional(url('REDIS_URL', { protocols: ['redis', 'rediss'] })),
    redisSentinels: optional(hostPortList('REDIS_SENTINELS')),
    redisSentinelName: str('REDIS_SENTINEL_MASTER', { default: 'mymaster', pattern: /^[A-Za-z0-9._-]{1,100}$/ }),
    redisSentinelUsername: optionalStr('REDIS_SENTINEL_USERNAME'),
    redisSentinelPassword: optionalStr('REDIS_SENTINEL_PASSWORD'),
    redisUsername: optionalStr('REDIS_USERNAME'),
    redisPassword: optionalStr('REDIS_PASSWORD'),
    redisTls: bool('REDIS_TLS', { default: false }),
    redisTlsCa: optionalFileContents('REDIS_TLS_CA_FILE'),
  };
}

/** A required setting made optional: unset is undefined. */
function optional<T>(setting: { variable: string; parse(raw: string | undefined): T }) {
  return {
    variable: setting.variable,
    parse: (raw: string | undefined) => (raw === undefined ? undefined : setting.parse(raw)),
  };
}

type RedisConnectionValues = ReturnType<typeof loadConfig<ReturnType<typeof redisConnectionSettings>>>;

export function redisConnectionProblems(v: RedisConnectionValues): string[] {
  const problems: string[] = [];
  if ((v.redisUrl === undefined) === (v.redisSentinels === undefined))
    problems.push('set one of REDIS_URL and REDIS_SENTINELS');
  if (v.redisPassword !== undefined && v.redisUrl !== undefined && new URL(v.redisUrl).password !== '')
    problems.push('REDIS_PASSWORD and a password in REDIS_URL are both set; set one');
  const tls = v.redisTls || v.redisUrl?.startsWith('rediss:') === true;
  if (v.redisTlsCa !== undefined && !tls) problems.push('REDIS_TLS_CA_FILE needs REDIS_TLS=true or a rediss:// URL');
  return problems;
}

export function redisConnectionOf(v: RedisConnectionValues): RedisConnection {
  const connection: RedisConnection = {};
  if (v.redisUrl !== undefined) connection.url = v.redisUrl;
  if (v.redisSentinels !== undefined) {
    connection.sentinels = v.redisSentinels.map((hostPort) => {
      const at = hostPort.lastIndexOf(':');
      return { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(at + 1)) };
    });
    connection.sentinelName = v.redisSentinelName;
    if (v.redisSentinelUsername !== undefined) connection.sentinelUsername = v.redisSentinelUsername;
    if (v.redisSentinelPassword !== undefined) connection.sentinelPassword = v.redisSentinelPassword;
  }
  if (v.redisUsername !== undefined) connection.username = v.redisUsername;
  if (v.redisPassword !== undefined) connection.password = v.redisPassword;
  if (v.redisTls || v.redisUrl?.startsWith('rediss:')) connection.tls = v.redisTlsCa ? { ca: v.redisTlsCa } : {};
  return connection;
}

/** Reads the connection from an environment (a script's, a test's): throws naming every problem. */
export function redisConnectionFromEnv(env: Record<string, string | undefined> = process.env): RedisConnection {
  const values = loadConfig(redisConnectionSettings(), env);
  const problems = redisConnectionProblems(values);
  if (problems.length > 0) throw new Error(`invalid configuration: ${problems.join('; ')}`);
  return redisConnectionOf(values);
}

/** The ioredis options of a connection (beside the URL, when it has one). */
export function ioredisOptions(connection: RedisConnection): RedisOptions {
  const options: RedisOptions = {};
  if (connection.username !== undefined) options.username = connection.username;
  if (connection.password !== undefined) options.password = connection.password;
  if (connection.tls) options.tls = { ...connection.tls };
  if (connection.sentinels) {
    options.sentinels = connection.sentinels;
    options.name = connection.sentinelName ?? 'mymaster';
    if (connection.sentinelUsername !== undefined) options.sentinelUsername = connection.sentinelUsername;
    if (connection.sentinelPassword !== undefined) options.sentinelPassword = connection.sentinelPassword;
    if (connection.tls) {
      options.enableTLSForSentinelMode = true;
      options.sentinelTLS = { ...connection.tls };
    }
  }
  return options;
}

/** A connection for logs and the status table: where and how, never a password. */
export function describeRedisConnection(connection: RedisConnection): string {
  const where = connection.sentinels
    ? `sentinels ${connection.sentinels.map((s) => `${s.host}:${s.port}`).join(',')} (${connection.sentinelName})`
    : (() => {
        const u = new URL(connection.url!);
        return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
      })();
  const user = connection.username ?? (connection.url ? new URL(connection.url).username || undefined : undefined);
  return `${where}${user ? ` as ${user}` : ''}${connection.tls ? ' TLS' : ''}`;
}
