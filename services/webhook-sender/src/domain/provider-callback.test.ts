import { callbackOrigin, redactUrl } from './provider-callback';

const URL_WITH_TOKEN = 'https://platform.example:8443/callbacks/cbt_9f8e7d6c5b4a39281706/deliveries?sig=q1w2e3r4t5y6';

describe('callbackOrigin', () => {
  it('is the scheme and host (with a port that is not the default), never the path or query', () => {
    expect(callbackOrigin(URL_WITH_TOKEN)).toBe('https://platform.example:8443');
    expect(callbackOrigin('https://platform.example/cb/tok')).toBe('https://platform.example');
    expect(callbackOrigin('http://127.0.0.1:4100/cb/tok')).toBe('http://127.0.0.1:4100');
  });

  it('is null for what is not an absolute URL with an origin', () => {
    expect(callbackOrigin('/cb/tok')).toBeNull();
    expect(callbackOrigin('not a url')).toBeNull();
    expect(callbackOrigin('data:text/plain,secret')).toBeNull();
  });
});

describe('redactUrl', () => {
  it('removes the URL, its path and query, and every long segment or value from a message', () => {
    const messages = [
      `connect to ${URL_WITH_TOKEN} failed`,
      'GET /callbacks/cbt_9f8e7d6c5b4a39281706/deliveries?sig=q1w2e3r4t5y6 refused',
      'token cbt_9f8e7d6c5b4a39281706 was rejected, q1w2e3r4t5y6 too',
    ];
    for (const message of messages) {
      const redacted = redactUrl(message, URL_WITH_TOKEN);
      expect(redacted).not.toContain('cbt_9f8e7d6c5b4a39281706');
      expect(redacted).not.toContain('q1w2e3r4t5y6');
      expect(redacted).toContain('[redacted]');
    }
  });

  it('finds a token that a message quotes percent-decoded', () => {
    const url = 'https://platform.example/cb/t%C3%B6ken-0123456789';
    expect(redactUrl('bad tötoken: töken-0123456789', url)).toBe('bad tötoken: [redacted]');
  });

  it('leaves a message that quotes nothing of the URL as it is, the host included', () => {
    const message = 'platform.example resolves to 10.0.0.7, which is a loopback, private or internal address';
    expect(redactUrl(message, URL_WITH_TOKEN)).toBe(message);
  });

  it('redacts the text as given when it is not a URL at all', () => {
    expect(redactUrl('failed for not-a-url-secret-token', 'not-a-url-secret-token')).toBe('failed for [redacted]');
  });
});
