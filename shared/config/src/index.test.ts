import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  bool,
  hostPortList,
  int,
  loadConfig,
  oneOf,
  optionalFileContents,
  optionalStr,
  port,
  str,
  url,
} from './index';

const spec = {
  port: port('PORT', { default: 4000 }),
  brokers: hostPortList('KAFKA_BROKERS'),
  mongo: url('MONGO_URL', { protocols: ['mongodb'] }),
  level: oneOf('LOG_LEVEL', ['info', 'debug'] as const, { default: 'info' }),
  tracing: optionalStr('OTEL_EXPORTER_OTLP_ENDPOINT'),
};

describe('loadConfig', () => {
  it('parses and applies defaults', () => {
    const config = loadConfig(spec, { KAFKA_BROKERS: 'a:1, b:2', MONGO_URL: 'mongodb://x:1/' });
    expect(config).toEqual({
      port: 4000,
      brokers: ['a:1', 'b:2'],
      mongo: 'mongodb://x:1/',
      level: 'info',
      tracing: undefined,
    });
  });

  it('names every missing or malformed variable in one line, without echoing values', () => {
    let caught: unknown;
    try {
      loadConfig(spec, { PORT: '99999', MONGO_URL: 'http://secret-host/', LOG_LEVEL: 'loud' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('PORT must be an integer between 1 and 65535');
    expect(message).toContain('KAFKA_BROKERS is required');
    expect(message).toContain('MONGO_URL must use one of the schemes mongodb');
    expect(message).toContain('LOG_LEVEL must be one of info, debug');
    expect(message).not.toContain('secret-host');
  });

  it('treats an empty or blank value as unset', () => {
    expect(() => loadConfig({ s: str('S') }, { S: '   ' })).toThrow('S is required');
  });

  it.each([
    ['12', 12],
    ['-3', -3],
  ])('reads integer %s', (raw, value) => {
    expect(loadConfig({ n: int('N') }, { N: raw }).n).toBe(value);
  });

  it.each(['1.5', '1e3', '0x10', 'ten'])('rejects non-integer %s', (raw) => {
    expect(() => loadConfig({ n: int('N') }, { N: raw })).toThrow('N must be an integer');
  });

  it('reads booleans strictly', () => {
    expect(loadConfig({ b: bool('B') }, { B: 'TRUE' }).b).toBe(true);
    expect(loadConfig({ b: bool('B') }, { B: '0' }).b).toBe(false);
    expect(() => loadConfig({ b: bool('B') }, { B: 'maybe' })).toThrow('B must be true or false');
  });

  it('rejects a broker list entry without a port', () => {
    expect(() => loadConfig({ k: hostPortList('K') }, { K: 'a:1,b' })).toThrow('K must be a comma-separated list');
  });
});

describe('a setting read from a file (VAR_FILE, as Secrets are mounted)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-file-'));
  const file = join(dir, 'password');
  writeFileSync(file, 's3cret-value\n');
  const passwordSpec = { password: optionalStr('KAFKA_SASL_PASSWORD') };

  it('reads VAR_FILE when VAR is unset, without its trailing newline', () => {
    expect(loadConfig(passwordSpec, { KAFKA_SASL_PASSWORD_FILE: file })).toEqual({ password: 's3cret-value' });
  });

  it('refuses both at once, and a file that cannot be read, naming the variable and never the value', () => {
    expect(() => loadConfig(passwordSpec, { KAFKA_SASL_PASSWORD: 'other', KAFKA_SASL_PASSWORD_FILE: file })).toThrow(
      'KAFKA_SASL_PASSWORD and KAFKA_SASL_PASSWORD_FILE are both set; set one',
    );
    let message = '';
    try {
      loadConfig(passwordSpec, { KAFKA_SASL_PASSWORD_FILE: join(dir, 'missing') });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('invalid configuration: KAFKA_SASL_PASSWORD_FILE names a file that cannot be read (ENOENT)');
  });

  it('reads a PEM file a path names, and refuses one that cannot be read', () => {
    const pem = join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const caSpec = { ca: optionalFileContents('KAFKA_SSL_CA_FILE') };
    expect(loadConfig(caSpec, { KAFKA_SSL_CA_FILE: pem }).ca).toContain('BEGIN CERTIFICATE');
    expect(loadConfig(caSpec, {}).ca).toBeUndefined();
    expect(() => loadConfig(caSpec, { KAFKA_SSL_CA_FILE: join(dir, 'nope.pem') })).toThrow(
      'KAFKA_SSL_CA_FILE names a file that cannot be read (ENOENT)',
    );
  });
});
