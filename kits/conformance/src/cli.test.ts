import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './cli';

describe('the command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdp-cli-'));
  let out: string[];
  let spies: jest.SpyInstance[];
  beforeEach(() => {
    out = [];
    const capture = (chunk: string | Uint8Array): boolean => (out.push(String(chunk)), true);
    spies = [
      jest.spyOn(process.stdout, 'write').mockImplementation(capture),
      jest.spyOn(process.stderr, 'write').mockImplementation(capture),
    ];
  });
  afterEach(() => spies.forEach((spy) => spy.mockRestore()));

  it('runs, writes signed reports without secrets, and verify tells a kept report from an edited one', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(
      join(dir, 'fixture.json'),
      JSON.stringify({
        provider: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'api-key-secret', webhookSecret: 'hook-secret' },
      }),
    );
    const code = await main([
      '--fixture',
      join(dir, 'fixture.json'),
      '--report',
      join(dir, 'out'),
      '--signing-key',
      join(dir, 'key.pem'),
      '--only',
      'NONE',
    ]);
    expect(code).toBe(0);
    const text = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    expect(text).not.toMatch(/api-key-secret|hook-secret/);
    expect(JSON.parse(text).signature.algorithm).toBe('Ed25519');
    expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toContain('<testsuites');
    expect(readFileSync(join(dir, 'out', 'report.html'), 'utf8')).toContain('<!doctype html>');
    expect(out.join('')).not.toMatch(/api-key-secret|hook-secret/);

    expect(
      await main(['verify', '--report', join(dir, 'out', 'report.json'), '--public-key', join(dir, 'pub.pem')]),
    ).toBe(0);
    writeFileSync(join(dir, 'edited.json'), text.replace('"failed": 0', '"failed": 1'));
    expect(await main(['verify', '--report', join(dir, 'edited.json')])).toBe(1);
    expect(out.join('')).toContain('INVALID: the signature does not match');
  });

  it('exits 2 on a usage error or an invalid declaration, 0 on --help', async () => {
    expect(await main(['--report', dir])).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"provider": ""}');
    expect(
      await main([
        '--base-url',
        'http://x/v1',
        '--api-key',
        'k',
        '--webhook-secret',
        's',
        '--report',
        dir,
        '--declaration',
        join(dir, 'bad.json'),
      ]),
    ).toBe(2);
    expect(out.join('')).toContain('is not valid:');
    expect(await main(['--help'])).toBe(0);
    expect(out.join('')).toContain('SDP_API_KEY');
  });
});
