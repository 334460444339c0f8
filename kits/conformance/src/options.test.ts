import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DECLARATION, parseArgs, runSettings, UsageError } from './options';

describe('command-line options', () => {
  it('defaults to run, reads --flag value and --flag=value, and rejects unknown options', () => {
    expect(parseArgs(['--report', 'out', '--only=A,B'])).toEqual({
      command: 'run',
      flags: { report: 'out', only: 'A,B' },
    });
    expect(parseArgs(['verify', '--report', 'r.json']).command).toBe('verify');
    expect(parseArgs(['run', '--help']).command).toBe('help');
    expect(() => parseArgs(['--nope', 'x'])).toThrow(UsageError);
    expect(() => parseArgs(['--report'])).toThrow('--report needs a value');
    expect(() => parseArgs(['verify', '--base-url', 'x'])).toThrow(UsageError);
  });

  it('takes the provider from a fixture, flags winning, the declaration defaulting to the package’s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdp-options-'));
    const fixture = join(dir, 'fixture.json');
    writeFileSync(
      fixture,
      JSON.stringify({ provider: { baseUrl: 'http://localhost:1/v1/', apiKey: 'k1', webhookSecret: 's1' } }),
    );
    const settings = runSettings(
      parseArgs(['--fixture', fixture, '--report', dir, '--api-key', 'k2', '--only', 'A, B']).flags,
      {},
    );
    expect(settings).toMatchObject({
      baseUrl: 'http://localhost:1/v1',
      apiKey: 'k2',
      webhookSecret: 's1',
      declarationFile: DEFAULT_DECLARATION,
      only: ['A', 'B'],
    });
  });

  it('reads secrets from the environment, and names what is missing', () => {
    const flags = parseArgs(['--base-url', 'https://p/v1', '--report', 'out']).flags;
    expect(runSettings(flags, { SDP_API_KEY: 'k', SDP_WEBHOOK_SECRET: 's' })).toMatchObject({
      apiKey: 'k',
      webhookSecret: 's',
    });
    expect(() => runSettings(flags, {})).toThrow(
      'missing --api-key (or SDP_API_KEY), --webhook-secret (or SDP_WEBHOOK_SECRET)',
    );
    expect(() =>
      runSettings(parseArgs(['--base-url', 'ftp://x', '--report', 'o']).flags, {
        SDP_API_KEY: 'k',
        SDP_WEBHOOK_SECRET: 's',
      }),
    ).toThrow(/http or https/);
    expect(() => runSettings({ ...flags, concurrency: '0' }, { SDP_API_KEY: 'k', SDP_WEBHOOK_SECRET: 's' })).toThrow(
      /--concurrency/,
    );
  });
});
