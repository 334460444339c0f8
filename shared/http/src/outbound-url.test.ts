import { outboundUrlProblem } from './outbound-url';

describe('outbound URL rules', () => {
  it.each([
    ['https://partner.example.com/hooks', false, undefined],
    ['https://partner.example.com:8443/hooks?x=1', false, undefined],
    ['http://partner.example.com/hooks', false, 'must use https'],
    ['http://partner.example.com/hooks', true, 'must use https'],
    ['ftp://partner.example.com/', false, 'must use https'],
    ['/relative', false, 'must be an absolute URL'],
    ['https://user:pw@partner.example.com/', false, 'must not contain credentials'],
    ['https://partner.example.com/#frag', false, 'must not contain a fragment'],
    ['https://10.1.2.3/hooks', false, 'must not point at a private or internal address'],
    ['https://169.254.169.254/latest/meta-data', false, 'must not point at a private or internal address'],
    ['https://[fd00::1]/hooks', false, 'must not point at a private or internal address'],
    ['https://127.0.0.1/hooks', false, 'must not point at this host'],
    ['http://127.0.0.1:9/hooks', false, 'must use https'],
    ['http://127.0.0.1:9/hooks', true, undefined],
    ['http://localhost:9/hooks', true, undefined],
    ['http://[::1]:9/hooks', true, undefined],
    ['https://8.8.8.8/hooks', false, undefined],
    ['https://[::ffff:10.0.0.1]/hooks', false, 'must not point at a private or internal address'],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', false, 'must not point at a private or internal address'],
    ['https://[::ffff:127.0.0.1]/hooks', false, 'must not point at a private or internal address'],
    ['https://[::ffff:8.8.8.8]/hooks', false, undefined],
  ])('%s (loopback http allowed: %s) → %s', (url, allow, problem) => {
    expect(outboundUrlProblem(url, { allowLoopbackHttp: allow })).toBe(problem);
  });
});

describe('outbound URL rules with standardPortOnly and maxLength (the provider contract)', () => {
  const rules = { allowLoopbackHttp: false, standardPortOnly: true, maxLength: 2048 };
  it.each([
    ['https://platform.example.com/cb/tok', undefined],
    ['https://platform.example.com:443/cb/tok', undefined],
    ['https://platform.example.com:8443/cb/tok', 'must use the standard https port (443)'],
    ['http://platform.example.com/cb', 'must use https'],
    ['https://10.0.0.1/cb', 'must not point at a private or internal address'],
    [`https://platform.example.com/${'a'.repeat(2048 - 29)}`, undefined],
    [`https://platform.example.com/${'a'.repeat(2048 - 28)}`, 'must be at most 2048 characters'],
  ])('%s → %s', (url, problem) => {
    expect(outboundUrlProblem(url, rules)).toBe(problem);
  });

  it('lets loopback keep any port when loopback http is allowed (local and test setups)', () => {
    expect(outboundUrlProblem('http://127.0.0.1:9/cb', { ...rules, allowLoopbackHttp: true })).toBeUndefined();
    expect(outboundUrlProblem('https://127.0.0.1:9/cb', rules)).toBe('must not point at this host');
  });
});
