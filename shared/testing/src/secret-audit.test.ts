import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readIssuedSecrets, recordIssuedSecret, recordSecretsIn } from './issued-secrets';
import { auditSecrets, describeFinding, expectNoSecrets, findIssuedSecrets, recordErrorBody } from './secret-audit';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'secret-audit-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// An opaque OAuth token and a callback token: no pattern knows them, only the exact values can.
const opaque = 'Zx9-QwErTy_uIoP1aSdFgHjKl2ZxCvBnM3qWeRtYuIo';
const callbackToken = 'tok_journey_7f3a';

describe('auditSecrets', () => {
  it('fails on a planted secret: kind and file:line, never the value', () => {
    const log = join(dir, 'gateway-auth-1.log');
    writeFileSync(
      log,
      [
        '{"level":"info","msg":"request","path":"/api/partner/v1/orders"}',
        `{"level":"warn","msg":"token exchange failed","detail":"${opaque}"}`,
        `{"level":"info","url":"https://platform.example/cb/${callbackToken}"}`,
        `{"level":"error","apiKey":"mpk_${'A'.repeat(22)}.${'b'.repeat(43)}"}`,
      ].join('\n'),
    );
    const metrics = join(dir, 'gateway-auth-1.metrics');
    writeFileSync(metrics, `http_requests_total{route="/cb/${callbackToken}"} 1\n`);
    const issued = [
      { kind: 'OAuth access token', value: opaque },
      { kind: 'callback token', value: callbackToken },
    ];
    const findings = auditSecrets({ files: [log, metrics], issued }).map((f) => describeFinding(f, dir));
    expect(findings).toEqual([
      'gateway-auth-1.log:4 API key (pattern)',
      'gateway-auth-1.log:2 OAuth access token (exact)',
      'gateway-auth-1.log:3 callback token (exact)',
      'gateway-auth-1.metrics:1 callback token (exact)',
    ]);
    expect(JSON.stringify(findings)).not.toContain(opaque);
  });

  it('passes clean files', () => {
    const log = join(dir, 'catalog-2.log');
    writeFileSync(log, '{"level":"info","msg":"request","keyId":"mpk_AAAAAAAAAAAAAAAAAAAAAA"}\n');
    expect(auditSecrets({ files: [log], issued: [{ kind: 'OAuth access token', value: opaque }] })).toEqual([]);
  });
});

describe('findIssuedSecrets', () => {
  it('finds every occurrence on its own line, at any position, and ignores values shorter than 8', () => {
    const text = `${opaque}\nx\nprefix${opaque}suffix and ${callbackToken}\nshort`;
    const issued = [
      { kind: 'a', value: opaque },
      { kind: 'b', value: callbackToken },
      { kind: 'c', value: 'short' },
    ];
    expect(findIssuedSecrets(text, issued)).toEqual([
      { kind: 'a', line: 1 },
      { kind: 'a', line: 3 },
      { kind: 'b', line: 3 },
    ]);
  });

  it('scans megabytes against thousands of values quickly', () => {
    const issued = Array.from({ length: 5000 }, (_, i) => ({ kind: 'k', value: `secret-${i}-${'z'.repeat(30)}` }));
    const text = `${'{"level":"info","msg":"request","durationMs":1.2}\n'.repeat(100_000)}secret-4999-${'z'.repeat(30)}`;
    const started = Date.now();
    expect(findIssuedSecrets(text, issued)).toEqual([{ kind: 'k', line: 100_001 }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('expectNoSecrets', () => {
  it('throws on a body holding an issued value or the shape of a secret, naming the kind only', () => {
    const issued = [{ kind: 'courier token', value: opaque }];
    expect(() => expectNoSecrets({ code: 'request.invalid', detail: `bad ${opaque}` }, issued)).toThrow(
      /courier token \(exact/,
    );
    expect(() => expectNoSecrets(`whsec_${'c'.repeat(43)}`, [])).toThrow(/webhook signing secret/);
    expect(() =>
      expectNoSecrets({ code: 'request.too_large', message: 'The request body is too large.' }, issued),
    ).not.toThrow();
  });
});

describe('the issued secrets registry', () => {
  it('keeps each value once, in a file only its owner reads, and the secret part of a credential too', () => {
    const key = `pdd_${'C'.repeat(22)}.${'s'.repeat(43)}`;
    recordIssuedSecret('courier token', key, dir);
    recordIssuedSecret('courier token', key, dir);
    recordIssuedSecret('too short', 'abc', dir);
    const file = join(dir, `${process.pid}.jsonl`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readIssuedSecrets(dir)).toEqual([
      { kind: 'courier token', value: key },
      { kind: 'courier token (secret part)', value: 's'.repeat(43) },
    ]);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it("picks secrets out of bodies by the logger's list of sensitive keys", () => {
    recordSecretsIn(
      {
        credentials: {
          apiKey: `mpk_${'Q'.repeat(22)}.${'w'.repeat(43)}`,
          webhookSigningSecret: `whsec_${'e'.repeat(43)}`,
        },
        driver: { name: 'Dana Driver', phone: '+49 170 5550199' },
        trackingUrl: `http://127.0.0.1:1/track/trk_${'r'.repeat(22)}`,
        customerName: 'Ada Customer',
        customerPhone: '+49 30 1234567',
      },
      dir,
    );
    const recorded = readIssuedSecrets(dir);
    expect(recorded.map((s) => s.kind).sort()).toEqual(
      [
        'API key',
        'API key (secret part)',
        'driver phone number',
        'tracking URL',
        'tracking token',
        'webhook signing secret',
      ].sort(),
    );
    expect(recorded.map((s) => s.value)).not.toContain('Ada Customer');
  });
});

describe('recordErrorBody', () => {
  it('keeps error answers only', () => {
    recordErrorBody(200, 'GET', '{"ok":true}', dir);
    recordErrorBody(413, 'POST', '{"code":"request.too_large"}', dir);
    const lines = readFileSync(join(dir, `${process.pid}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { status: 413, method: 'POST', body: '{"code":"request.too_large"}' },
    ]);
  });
});
