import { findSecrets } from './secret-patterns';

describe('findSecrets', () => {
  it('finds each kind of secret and reports only its kind and line', () => {
    const text = [
      '{"msg":"request","path":"/api/partner/v1/orders"}',
      `{"apiKey":"mpk_${'A'.repeat(22)}.${'b'.repeat(43)}"}`,
      `whsec_${'c'.repeat(43)}`,
      `token eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYWRtaW4ifQ.${'d'.repeat(43)}`,
      `x-marketplace-identity: v1.eyJpZCI6eyJraW5kIjoicGFydG5lciJ9fQ.${'e'.repeat(86)}`,
      'authorization: Bearer abcdefghijklmnopqrstuvwxyz',
      `{"key":"pdk_${'F'.repeat(22)}.${'g'.repeat(43)}"}`,
      `{"secret":"pwhsec_${'h'.repeat(43)}"}`,
    ].join('\n');
    // A `pwhsec_` secret is found twice (it contains `whsec_`): each line counts once here.
    expect([...new Set(findSecrets(text).map((f) => f.line))]).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(findSecrets(text).map((f) => f.kind)).toEqual(
      expect.arrayContaining(['provider platform API key', 'provider webhook signing secret']),
    );
    expect(JSON.stringify(findSecrets(text))).not.toContain('bbbb');
  });

  it('leaves ordinary log lines alone', () => {
    expect(
      findSecrets(
        '{"level":30,"keyId":"mpk_AAAAAAAAAAAAAAAAAAAAAA","requestId":"6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f"}\n' +
          '{"level":30,"keyId":"pdk_AAAAAAAAAAAAAAAAAAAAAA","path":"/admin/v1/platform-accounts"}',
      ),
    ).toEqual([]);
  });
});

describe('SECRET_PATTERNS', () => {
  const b64 = (n: number, c = 'a') => c.repeat(n);
  // One example of each shape this platform mints or sees, as it would sit in a log line.
  const examples: [string, string][] = [
    ['API key', `{"key":"mpk_${b64(22, 'A')}.${b64(43)}"}`],
    ['webhook signing secret', `"whsec_${b64(43)}"`],
    // The current shape: standard base64 of 32 bytes, a `+` or `/` anywhere (here within the first 20).
    ['webhook signing secret', `"webhookSigningSecret":"whsec_ab+/${b64(39)}="`],
    ['webhook signing secret', `whsec_/${b64(42, 'Z')}=`],
    ['provider platform API key', `pdk_${b64(22, 'B')}.${b64(43)}`],
    ['provider webhook signing secret', `pwhsec_${b64(43)}`],
    ['courier token', `"pdd_${b64(22, 'C')}.${b64(43, 'x')}"`],
    ['tracking token', `"url":"https://provider.example/track/trk_${b64(22, 'T')}"`],
    ['bearer token (JWT)', `eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYWRtaW4ifQ.${b64(43, 'd')}`],
    ['signed identity', `v1.eyJpZCI6eyJraW5kIjoicGFydG5lciJ9fQ.${b64(86, 'e')}`],
    [
      'Authorization header value',
      `authorization: Basic ${Buffer.from('client-id:client-secret-value').toString('base64')}`,
    ],
    ['OAuth token or client secret', `{"access_token":"${b64(43, 'Q')}","token_type":"Bearer"}`],
    ['OAuth token or client secret', `refresh_token=${b64(43, 'R')}`],
    ['OAuth token or client secret', `{"clientSecret":"s3cr3t-${b64(20, 'S')}"}`],
    ['phone number', `{"driverPhone":"+49 170 5550101"}`],
    ['phone number', `{"driver":{"phone":"030 1234567"}}`],
  ];

  it.each(examples)('finds a %s', (kind, line) => {
    expect(findSecrets(line).map((f) => f.kind)).toContain(kind);
  });

  it('does not take what the logger redacted, a public key id or a tracking route for a secret', () => {
    const lines = [
      '{"driverPhone":"[redacted]","access_token":"[redacted]","clientSecret":"[redacted]"}',
      `{"keyId":"pdd_${b64(22, 'C')}","tokenId":"pdd_${b64(22, 'D')}"}`,
      '{"path":"/track/[redacted]","route":"/track/:token"}',
      '{"fieldErrors":{"phone":["must match pattern"]}}',
      '{"msg":"Basic checks passed","time":"2025-01-01T10:00:00+01:00"}',
    ];
    expect(findSecrets(lines.join('\n'))).toEqual([]);
  });
});
