#!/usr/bin/env node
// `node scripts/demo/provider-admin-token.mjs [--minutes N]`: prints an administrator token of
// provider-delivery (its administrator and operations APIs under /admin/v1), valid for N minutes
// (default 60), for demos and the provider walkthrough of docs/demo.md against a local cluster. An HS256
// JWT `{ role: 'admin', sub: 'demo' }` signed with PROVIDER_ADMIN_TOKEN_SECRET (the environment,
// else .stack/local.env) by the shared bearer-token code; PROVIDER_ADMIN_TOKEN, when set, is
// printed as it is. The only output is the token: capture it (`TOKEN=$(node ...)`), never log it.
import { parseArgs } from 'node:util';
import { SeedError } from './lib/api.mjs';
import { providerAdminToken } from './lib/options.mjs';

try {
  const { values } = parseArgs({ options: { minutes: { type: 'string', default: '60' } } });
  const minutes = Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60)
    throw new SeedError('--minutes must be an integer from 1 to 1440', { exitCode: 2 });
  const token = providerAdminToken({ providerAdminToken: process.env.PROVIDER_ADMIN_TOKEN || undefined }, process.env, {
    sub: 'demo',
    ttlSeconds: minutes * 60,
  });
  process.stdout.write(`${token}\n`);
} catch (error) {
  console.error(`provider-admin-token: ${error.message}`);
  process.exitCode = error instanceof SeedError ? error.exitCode : 1;
}
