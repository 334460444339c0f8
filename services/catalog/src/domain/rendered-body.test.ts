import { gunzipSync } from 'node:zlib';
import { acceptsGzip, etagMatches, renderBody } from './rendered-body';

describe('renderBody', () => {
  it('compresses bodies from 1 KiB on, and the gzip form decompresses to the JSON', () => {
    expect(renderBody({ a: 1 }).gzip).toBeUndefined();
    const big = renderBody({ items: Array.from({ length: 200 }, (_, i) => ({ i, name: 'Margherita' })) });
    expect(big.gzip!.length).toBeLessThan(big.json.length / 5);
    expect(gunzipSync(big.gzip!).equals(big.json)).toBe(true);
  });

  it('gives equal bodies the same weak ETag and different bodies different ones', () => {
    expect(renderBody({ a: 1 }).etag).toBe(renderBody({ a: 1 }).etag);
    expect(renderBody({ a: 1 }).etag).not.toBe(renderBody({ a: 2 }).etag);
    expect(renderBody({ a: 1 }).etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  });
});

describe('etagMatches', () => {
  const etag = 'W/"abc"';
  it.each([
    ['W/"abc"', true],
    ['"abc"', true], // weak comparison
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => expect(etagMatches(header, etag)).toBe(expected));
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['deflate, GZIP', true],
    ['gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['*', true],
    ['br', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});
