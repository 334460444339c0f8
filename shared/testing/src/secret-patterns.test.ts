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
