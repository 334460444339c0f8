import { isHostName } from '../../domain/callback-url';
import type { ProviderContext } from '../context';
import { checkCallbackUrl } from './check-callback-url';

const ctx = (resolve: (host: string) => Promise<string[]>, allowLoopbackHttpUrls = false) =>
  ({ allowLoopbackHttpUrls, resolveHost: resolve }) as unknown as ProviderContext;
const fails = (code: string) => () => Promise.reject(Object.assign(new Error(code), { code }));

it('accepts a host whose addresses are all public', async () => {
  expect(
    await checkCallbackUrl(
      ctx(async () => ['93.184.216.34']),
      'https://platform.example/cb/tok',
    ),
  ).toBeUndefined();
});

it('refuses a host with any private or internal address', async () => {
  const mixed = ctx(async () => ['93.184.216.34', '10.0.0.8']);
  expect(await checkCallbackUrl(mixed, 'https://platform.example/cb')).toBe(
    'must not resolve to a private or internal address',
  );
  expect(
    await checkCallbackUrl(
      ctx(async () => ['::ffff:127.0.0.1']),
      'https://platform.example/cb',
    ),
  ).toMatch(/private/);
});

it('refuses a name that does not resolve or is not a host name, without asking the resolver', async () => {
  for (const code of ['ENOTFOUND', 'EINVAL', 'EAI_FAIL'])
    expect(await checkCallbackUrl(ctx(fails(code)), 'https://nowhere.example/cb')).toBe(
      'must name a host that resolves',
    );
  const never = ctx(() => Promise.reject(new Error('not asked')));
  const long = `https://${`${'a'.repeat(63)}.`.repeat(4)}com/cb`;
  expect(await checkCallbackUrl(never, long)).toMatch(/valid host/);
  expect(isHostName(`${'a'.repeat(64)}.com`)).toBe(false);
  expect(isHostName('xn--bcher-kva.example')).toBe(true);
});

it('answers 503 when the resolver fails for a moment', async () => {
  await expect(checkCallbackUrl(ctx(fails('EAI_AGAIN')), 'https://platform.example/cb')).rejects.toMatchObject({
    code: 'service.unavailable',
  });
});
