import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals so that the value is not visible and opens it again in the same context', () => {
    const sealed = box.seal('whsec_super-secret', 'installation:1:webhook-secret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('super-secret');
    expect(box.seal('whsec_super-secret', 'installation:1:webhook-secret')).not.toBe(sealed); // fresh IV
    expect(box.open(sealed, 'installation:1:webhook-secret')).toBe('whsec_super-secret');
  });

  it('refuses another context, another key or a tampered value', () => {
    const sealed = box.seal('token', 'installation:1:oauth-access-token');
    expect(() => box.open(sealed, 'installation:2:oauth-access-token')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'installation:1:oauth-access-token')).toThrow();
    const [v, iv, ct, tag] = sealed.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'installation:1:oauth-access-token'),
    ).toThrow();
    expect(() => box.open('garbage', 'x')).toThrow('not a sealed value');
  });

  it('wants a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow();
  });
});
