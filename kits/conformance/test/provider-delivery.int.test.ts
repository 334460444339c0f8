import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@marketplace/testing';
import { loadDeclaration, runConformance, verifyReport, writeReports, type Report } from '../src';
import { startOurProvider, type OurProvider } from './support/our-provider';

// Our provider-delivery passes the kit: every test of every capability it declares
// (declarations/provider-delivery.json), run as any provider would be, through its platform API
// and its callbacks (a webhook sender of its own delivers them to the kit's receiver). The reports
// are written to .test-results/conformance/ for a person to read.

jest.setTimeout(900_000);

const declaration = loadDeclaration(join(__dirname, '../declarations/provider-delivery.json'));
let provider: OurProvider;
let report: Report;

beforeAll(async () => {
  const { pickup, dropoff } = declaration.area;
  provider = await startOurProvider({
    pickupAddress: pickup.address,
    pickupLat: pickup.lat,
    pickupLng: pickup.lng,
    customerName: 'Warm Up',
    customerPhone: '+49 30 1234567',
    dropoffAddress: dropoff.address,
    dropoffLat: dropoff.lat,
    dropoffLng: dropoff.lng,
    paymentMethod: 'card',
    amount: 1,
    currency: 'EUR',
    preparationTimeMinutes: 0,
  });
  report = await runConformance({
    baseUrl: provider.baseUrl,
    apiKey: provider.apiKey,
    webhookSecret: provider.webhookSecret,
    declaration,
  });
}, 900_000);

afterAll(async () => {
  await provider?.stop();
});

it('passes every applicable test of the kit', () => {
  const failed = report.tests.filter((t) => t.status === 'fail').map((t) => `${t.id}: ${t.reason}`);
  expect(failed).toEqual([]);
  expect(report.summary.passed).toBeGreaterThan(60);
});

it('skips only what its declaration makes inapplicable', () => {
  const skipped = report.tests.filter((t) => t.status === 'skip').map((t) => t.id);
  // With the scheduled-delivery capability declared, the check of a provider without it does not apply.
  expect(skipped).toEqual(['SDP-CREATE-07']);
});

it('writes the reports, the JSON one signed so that an edit shows', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const written = await writeReports(report, join(repoRoot, '.test-results', 'conformance'), privateKey);
  const signed = JSON.parse(readFileSync(written.files.json, 'utf8')) as Report;
  const trusted = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  expect(verifyReport(signed, trusted).valid).toBe(true);
  signed.tests[0]!.status = signed.tests[0]!.status === 'pass' ? 'fail' : 'pass';
  expect(verifyReport(signed, trusted).valid).toBe(false);
  expect(readFileSync(written.files.junit, 'utf8')).toContain('<testsuites');
  expect(readFileSync(written.files.html, 'utf8')).not.toContain(provider.apiKey);
});

it('is certified for every capability it declares', () => {
  const declared = report.capabilities.filter((c) => c.declared);
  expect(declared.map((c) => [c.capability, c.certified])).toEqual(declared.map((c) => [c.capability, true]));
  expect(declared.length).toBe(8);
});
