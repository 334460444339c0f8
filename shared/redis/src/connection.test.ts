import { describeRedisConnection, ioredisOptions, redisConnectionFromEnv } from './connection';

describe('the Redis connection settings', () => {
  it('are a URL, with an ACL user beside it', () => {
    const connection = redisConnectionFromEnv({
      REDIS_URL: 'redis://cache.example:6379',
      REDIS_USERNAME: 'gateway',
      REDIS_PASSWORD: 's3cret',
    });
    expect(ioredisOptions(connection)).toEqual({ username: 'gateway', password: 's3cret' });
    expect(describeRedisConnection(connection)).toBe('redis://cache.example:6379 as gateway');
  });

  it('are TLS with rediss:// or REDIS_TLS', () => {
    expect(ioredisOptions(redisConnectionFromEnv({ REDIS_URL: 'rediss://cache.example:6380' }))).toEqual({ tls: {} });
    expect(() => redisConnectionFromEnv({ REDIS_URL: 'redis://c:1', REDIS_TLS_CA_FILE: __filename })).toThrow(
      'REDIS_TLS_CA_FILE needs REDIS_TLS=true or a rediss:// URL',
    );
  });

  it('are Sentinels naming the primary, TLS to both when asked', () => {
    const connection = redisConnectionFromEnv({
      REDIS_SENTINELS: 's1:26379,s2:26379',
      REDIS_SENTINEL_MASTER: 'marketplace',
      REDIS_SENTINEL_PASSWORD: 'sentinel-pass',
      REDIS_PASSWORD: 'data-pass',
      REDIS_TLS: 'true',
    });
    expect(ioredisOptions(connection)).toEqual({
      password: 'data-pass',
      tls: {},
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'marketplace',
      sentinelPassword: 'sentinel-pass',
      enableTLSForSentinelMode: true,
      sentinelTLS: {},
    });
    const described = describeRedisConnection(connection);
    expect(described).toBe('sentinels s1:26379,s2:26379 (marketplace) TLS');
    expect(described).not.toMatch(/pass/);
  });

  it('refuse neither or both of REDIS_URL and REDIS_SENTINELS, and two passwords', () => {
    expect(() => redisConnectionFromEnv({})).toThrow('set one of REDIS_URL and REDIS_SENTINELS');
    expect(() => redisConnectionFromEnv({ REDIS_URL: 'redis://c:1', REDIS_SENTINELS: 's:1' })).toThrow(
      'set one of REDIS_URL and REDIS_SENTINELS',
    );
    expect(() => redisConnectionFromEnv({ REDIS_URL: 'redis://:a@c:1', REDIS_PASSWORD: 'b' })).toThrow(
      'REDIS_PASSWORD and a password in REDIS_URL are both set',
    );
  });
});
