import { readFileSync } from 'node:fs';

/**
 * Typed configuration read once from the environment. Every problem is collected and reported in
 * one line that names the variables (values are never echoed: they may be secrets).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export interface Setting<T> {
  readonly variable: string;
  /** Returns the parsed value, or throws a message (without the variable name) on bad input. */
  parse(raw: string | undefined): T;
}

type Values<S> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/**
 * The raw value of a setting: `VAR`, or the contents of the file `VAR_FILE` names (how Kubernetes
 * Secrets and Docker secrets are mounted: a password never needs to sit in the environment). Both
 * set is a problem, so a stale value cannot silently win. An empty value counts as unset.
 */
function rawValue(variable: string, source: Record<string, string | undefined>): string | undefined {
  const direct = source[variable]?.trim() || undefined;
  const file = source[`${variable}_FILE`]?.trim() || undefined;
  if (file === undefined) return direct;
  if (direct !== undefined) throw new Problem(`${variable} and ${variable}_FILE are both set; set one`);
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new Problem(`${variable}_FILE names a file that cannot be read (${code})`);
  }
}

/** A problem stated whole (naming its variable itself). */
class Problem extends Error {}

export function loadConfig<S extends Record<string, Setting<unknown>>>(
  spec: S,
  source: Record<string, string | undefined> = process.env,
): Readonly<Values<S>> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(spec)) {
    try {
      values[key] = setting.parse(rawValue(setting.variable, source));
    } catch (error) {
      problems.push(error instanceof Problem ? error.message : `${setting.variable} ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(values) as Values<S>;
}

interface Options<T> {
  /** Used when the variable is unset or empty. Without it the variable is required. */
  default?: T;
}

function setting<T>(variable: string, opts: Options<T>, convert: (raw: string) => T): Setting<T> {
  return {
    variable,
    parse(raw) {
      if (raw === undefined) {
        if (opts.default !== undefined) return opts.default;
        throw new Error('is required');
      }
      return convert(raw);
    },
  };
}

export function str(variable: string, opts: Options<string> & { pattern?: RegExp; minLength?: number } = {}) {
  return setting(variable, opts, (raw) => {
    if (opts.minLength !== undefined && raw.length < opts.minLength)
      throw new Error(`must be at least ${opts.minLength} characters`);
    if (opts.pattern && !opts.pattern.test(raw)) throw new Error(`must match ${opts.pattern}`);
    return raw;
  });
}

/**
 * A file given by its path (a PEM certificate or key), returned as its contents; undefined when
 * unset. A path that cannot be read is a problem at start-up, not at the first connection.
 */
export function optionalFileContents(variable: string): Setting<string | undefined> {
  return {
    variable,
    parse(raw) {
      if (raw === undefined) return undefined;
      try {
        return readFileSync(raw, 'utf8');
      } catch (error) {
        throw new Error(`names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    },
  };
}

/** Optional string: undefined when unset. */
export function optionalStr(variable: string): Setting<string | undefined> {
  return { variable, parse: (raw) => raw };
}

export function int(variable: string, opts: Options<number> & { min?: number; max?: number } = {}) {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = opts;
  return setting(variable, opts, (raw) => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new Error(`must be an integer between ${min} and ${max}`);
    }
    return value;
  });
}

export function port(variable: string, opts: Options<number> = {}) {
  return int(variable, { ...opts, min: 1, max: 65535 });
}

export function bool(variable: string, opts: Options<boolean> = {}) {
  return setting(variable, opts, (raw) => {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    throw new Error('must be true or false');
  });
}

export function oneOf<const T extends string>(variable: string, choices: readonly T[], opts: Options<T> = {}) {
  return setting(variable, opts, (raw) => {
    if (!(choices as readonly string[]).includes(raw)) throw new Error(`must be one of ${choices.join(', ')}`);
    return raw as T;
  });
}

export function url(variable: string, opts: Options<string> & { protocols: readonly string[] }) {
  return setting(variable, opts, (raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error('must be an absolute URL');
    }
    if (!opts.protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new Error(`must use one of the schemes ${opts.protocols.join(', ')}`);
    }
    return raw;
  });
}

/** Comma-separated `host:port` list, as Kafka bootstrap servers are given. */
export function hostPortList(variable: string, opts: Options<string[]> = {}) {
  return setting(variable, opts, (raw) => {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.find((item) => !/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(item));
    if (items.length === 0 || bad !== undefined) throw new Error('must be a comma-separated list of host:port');
    return items;
  });
}

/**
 * A secret key given as base64 (for example `openssl rand -base64 32`), returned as bytes. `bytes`
 * demands an exact length (an AES-256 key), `minBytes` a least one (an HMAC key).
 */
export function base64Key(variable: string, opts: { bytes?: number; minBytes?: number } = {}): Setting<Buffer> {
  return setting(variable, {}, (raw) => {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) throw new Error('must be base64');
    const key = Buffer.from(raw, 'base64');
    if (opts.bytes !== undefined && key.length !== opts.bytes)
      throw new Error(`must decode to exactly ${opts.bytes} bytes`);
    if (opts.minBytes !== undefined && key.length < opts.minBytes)
      throw new Error(`must decode to at least ${opts.minBytes} bytes`);
    return key;
  });
}
