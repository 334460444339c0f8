import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption of secrets at rest with AES-256-GCM under the key from configuration (gateway-auth's
 * partner OAuth secrets and tokens, provider-delivery's webhook signing secrets). Each value is
 * bound to what it belongs to (`context`, for example `installation:<id>:webhook-secret`) as
 * associated data, so a ciphertext copied onto another record does not decrypt. Stored as
 * `v1.<iv>.<ciphertext>.<tag>` in base64url; a database dump shows none of the secrets.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || ciphertext === undefined || !tag) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
