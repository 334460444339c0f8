#!/usr/bin/env node
// Writes .stack/local.env once: settings for running the services on this machine, with secrets
// generated here (identity signing keys, the encryption key for secrets at rest, the API-key hash
// key, the admin/tenant token key; provider-delivery's admin token key, API-key hash key and
// secret key). Every service reads the one file, so a key two services share is one line: the
// webhook transport key (gateway-auth, provider-delivery and webhook-sender), provider-delivery's
// admin token key (provider-delivery, and webhook-sender's provider-callback API). They exist
// only in the ignored .stack/ folder and mean nothing anywhere else; a
// deployment sets its own (see deploy/README.md). Called by `stack.sh up`; safe to run
// concurrently (the first writer wins, the others read its file).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const localEnvFile = join(root, '.stack', 'local.env');

function generate() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const secret = () => randomBytes(32).toString('base64');
  return [
    '# Local development settings and secrets, generated on this machine by scripts/stack/local-env.mjs.',
    `INTERNAL_IDENTITY_PRIVATE_KEY=${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`,
    `INTERNAL_IDENTITY_PUBLIC_KEY=${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`,
    `SECRETS_ENCRYPTION_KEY=${secret()}`,
    `API_KEY_HASH_SECRET=${secret()}`,
    `MARKETPLACE_TOKEN_SECRET=${secret()}`,
    `WEBHOOK_SECRET_TRANSPORT_KEY=${secret()}`,
    // provider-delivery's administrator tokens; webhook-sender checks the same ones (provider callbacks).
    `PROVIDER_ADMIN_TOKEN_SECRET=${secret()}`,
    `PROVIDER_KEY_HASH_SECRET=${secret()}`,
    `PROVIDER_SECRET_KEY=${secret()}`,
    // ordering-pricing seals a Delivery order's drop-off for delivery-assignment, which seals its
    // provider connections' credentials at rest with a key of its own.
    `CUSTOMER_DATA_TRANSPORT_KEY=${secret()}`,
    `PROVIDER_CONNECTION_SECRETS_KEY=${secret()}`,
    // Local partners (test receivers, a local OAuth server) listen on plain HTTP on loopback.
    'ALLOW_LOOPBACK_HTTP_URLS=true',
    ...Object.entries(LOCAL_SETTINGS).map(([name, value]) => `${name}=${value}`),
    '',
  ].join('\n');
}

/**
 * Local settings that are not secrets: provider-delivery's courier simulator runs here (the demo
 * account turns it on; off in production).
 */
const LOCAL_SETTINGS = { SIMULATOR_ENABLED: 'true' };

/** Secrets (and LOCAL_SETTINGS) added after a machine's file was generated: appended once, the others kept. */
const LATER_SECRETS = [
  'WEBHOOK_SECRET_TRANSPORT_KEY',
  'PROVIDER_ADMIN_TOKEN_SECRET',
  'PROVIDER_KEY_HASH_SECRET',
  'PROVIDER_SECRET_KEY',
  'CUSTOMER_DATA_TRANSPORT_KEY',
  'PROVIDER_CONNECTION_SECRETS_KEY',
];

function addMissingSecrets() {
  const text = readFileSync(localEnvFile, 'utf8');
  const absent = (name) => !new RegExp(`^${name}=`, 'm').test(text);
  const missing = [
    ...LATER_SECRETS.filter(absent).map((name) => `${name}=${randomBytes(32).toString('base64')}`),
    ...Object.entries(LOCAL_SETTINGS)
      .filter(([name]) => absent(name))
      .map(([name, value]) => `${name}=${value}`),
  ];
  if (missing.length === 0) return;
  const lines = missing.join('\n');
  writeFileSync(localEnvFile, `${text.endsWith('\n') ? text : `${text}\n`}${lines}\n`, { mode: 0o600 });
}

export function ensureLocalEnv() {
  if (!existsSync(localEnvFile)) {
    mkdirSync(dirname(localEnvFile), { recursive: true });
    const tmp = `${localEnvFile}.${process.pid}.tmp`;
    writeFileSync(tmp, generate(), { mode: 0o600 });
    try {
      linkSync(tmp, localEnvFile); // fails if another process got there first: keep theirs
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  addMissingSecrets();
  return Object.fromEntries(
    readFileSync(localEnvFile, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line.trim()))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureLocalEnv();
}
