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
    ].join('\n');
    expect(findSecrets(text).map((f) => f.line)).toEqual([2, 3, 4, 5, 6]);
    expect(JSON.stringify(findSecrets(text))).not.toContain('bbbb');
  });

  it('leaves ordinary log lines alone', () => {
    expect(
      findSecrets(
        '{"level":30,"keyId":"mpk_AAAAAAAAAAAAAAAAAAAAAA","requestId":"6f1c1f8e-2b7a-4d1e-9c3a-0a5b6c7d8e9f"}',
      ),
    ).toEqual([]);
  });
});
