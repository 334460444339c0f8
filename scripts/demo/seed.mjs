#!/usr/bin/env node
// `npm run demo:seed -- --webhook-url URL --out FILE [--gateway URL] [--admin-token TOKEN]`
//
// Seeds demo data into a running cluster through the gateway's administrator and tenant APIs and
// writes a fixture file (JSON, mode 0600) with what a demo partner needs: base URLs, the tenant,
// and per installation its ids, API key and webhook signing secret. Idempotent: a second run finds
// the tenant, apps and contract versions again and only mints fresh credentials (revoking the old).
// Secrets go to the file only; stdout gets a short summary (ids and key ids).
//
// Seeding is an ordered list of steps (scripts/demo/steps/). A step is `{ name, run(ctx) }`: `run`
// gets the shared context below and returns fixture fields, merged into the file (objects merge
// key by key, so several steps can add to `installations`; setting the same leaf twice fails).
// Context: gatewayUrl, providerUrl, webhookUrl, admin and tenant API clients (`call(method, path,
// body?, expectedStatuses?)` and `request(...)` → { status, body }), provider (the same, for
// provider-delivery's administrator API), the fixture so far, report(line) for the summary (never a
// secret) and warn(line).
import { apiClient, PROVIDER_SERVICE, SeedError } from './lib/api.mjs';
import { mergeFixture, writeFixture } from './lib/fixture.mjs';
import { adminToken, parseOptions, providerAdminToken, USAGE } from './lib/options.mjs';
import { catalogStep } from './steps/catalog.mjs';
import { deliveryProviderStep } from './steps/delivery-provider.mjs';
import { orderSourceStep } from './steps/order-source.mjs';
import { orderingStep } from './steps/ordering.mjs';
import { paymentProcessorStep } from './steps/payment-processor.mjs';
import { providerStep } from './steps/provider.mjs';
import { providerConnectionStep } from './steps/provider-connection.mjs';
import { tenantStep } from './steps/tenant.mjs';

/** In order; later steps may use what earlier ones put into ctx.fixture (the tenant step comes first). */
export const SEED_STEPS = [
  tenantStep,
  orderSourceStep,
  deliveryProviderStep,
  catalogStep,
  orderingStep,
  paymentProcessorStep,
  providerStep,
  providerConnectionStep,
];

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const { gatewayUrl, providerUrl, webhookUrl, outFile } = options;
  const fixture = {
    gatewayUrl,
    partnerBaseUrl: `${gatewayUrl}/api/partner/v1`,
    adminApi: { baseUrl: `${gatewayUrl}/api/admin/v1` },
    webhookUrl,
  };
  let tenant;
  let provider;
  const ctx = {
    gatewayUrl,
    providerUrl,
    webhookUrl,
    admin: apiClient(gatewayUrl, adminToken(options), 'admin'),
    /** provider-delivery's administrator API client (its token minted when first used). */
    get provider() {
      provider ??= apiClient(providerUrl, providerAdminToken(options), 'provider-admin', PROVIDER_SERVICE);
      return provider;
    },
    fixture,
    /** The tenant API client, once the tenant step has put the tenant token into the fixture. */
    get tenant() {
      if (!fixture.tenantApi?.token) throw new Error('the tenant step must run before steps that use ctx.tenant');
      tenant ??= apiClient(gatewayUrl, fixture.tenantApi.token, 'tenant');
      return tenant;
    },
    report: (line) => console.log(`  ${line}`),
    warn: (line) => console.error(`seed: warning: ${line}`),
  };

  console.log(`demo seed against ${gatewayUrl}`);
  for (const step of SEED_STEPS) {
    try {
      mergeFixture(fixture, await step.run(ctx));
    } catch (error) {
      if (error instanceof SeedError) error.message = `${step.name}: ${error.message}`;
      throw error;
    }
  }
  fixture.generatedAt = new Date().toISOString();
  writeFixture(outFile, fixture);
  console.log(`wrote ${outFile} (mode 0600: it holds API keys, webhook secrets and a tenant token)`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof SeedError) {
    console.error(`seed: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(`seed: unexpected error: ${error?.stack ?? error}`);
    process.exitCode = 1;
  }
}
