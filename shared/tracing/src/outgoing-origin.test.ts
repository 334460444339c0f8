import { outgoingOrigin } from './index';

// What an outgoing span names when a service asks for origins only: never the path or query.
it('keeps the scheme, host and port of an outgoing request, and drops its path and query', () => {
  expect(
    outgoingOrigin({ protocol: 'https:', hostname: 'platform.example', port: 8443, path: '/cb/tok_secret?x=1' }),
  ).toBe('https://platform.example:8443');
  expect(outgoingOrigin({ protocol: 'http:', host: '127.0.0.1:4100', path: '/hooks/abc' })).toBe(
    'http://127.0.0.1:4100',
  );
  expect(outgoingOrigin({ protocol: 'https:', hostname: '::1', port: 443, path: '/x' })).toBe('https://[::1]:443');
  expect(outgoingOrigin({ hostname: 'example.test', path: '/a' })).toBe('http://example.test');
});
