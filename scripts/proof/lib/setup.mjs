// The proof's fixture: the demo's seed through the cluster's gateway, then what the traffic needs
// beyond it, with the simulated couriers of the demo's provider account turned up.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerAdminToken } from '../../demo/lib/options.mjs';
import { createRequire } from 'node:module';
import { root } from '../../services.mjs';

/** The demo's seed against the cluster, webhooks to `receiverUrl`/hooks: the fixture it wrote. */
export async function seed(cluster, receiverUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'proof-faults-'));
  const file = join(dir, 'fixture.json');
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'scripts/demo/seed.mjs'),
      '--gateway',
      cluster.url('gateway-auth'),
      '--provider-url',
      cluster.url('provider-delivery'),
      '--webhook-url',
      `${receiverUrl}/hooks`,
      '--out',
      file,
    ],
    { cwd: root, encoding: 'utf8', timeout: 180_000, killSignal: 'SIGKILL' },
  );
  if (result.status !== 0)
    throw new Error(`the demo seed failed (${result.status}):\n${result.stdout}${result.stderr}`);
  const fixture = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return fixture;
}

/**
 * What the traffic needs beyond the seed: the cola of Demo Bistro Mitte, pickup and drop-off
 * points. With `simulator` the demo platform account's simulated couriers are turned up; without,
 * they are turned off (the proof drives couriers of its own: lib/couriers.mjs).
 */
export async function prepare(cluster, fixture, { simulator = true } = {}) {
  const mitte = fixture.branches.find((b) => b.name === 'Demo Bistro Mitte');
  const res = await fetch(`${cluster.url('gateway-auth')}/api/partner/v1/catalog/branches/${mitte.id}/products`, {
    headers: { authorization: `ApiKey ${fixture.installations.orderSource.apiKey}` },
    signal: AbortSignal.timeout(10_000),
  });
  const menu = await res.json();
  const cola = menu.categories.flatMap((c) => c.products).find((p) => p.name === 'Cola');
  const inside = fixture.deliveryZones[0].inside;
  fixture.proof = {
    branchId: mitte.id,
    productId: cola.id,
    variantId: cola.variants[0].id,
    pickup: inside,
    dropoff: { latitude: inside.latitude + 0.004, longitude: inside.longitude + 0.004 },
  };
  // More simulated couriers on a faster clock than the demo's (or none), and no rate limit in the way.
  const admin = providerAdminToken({}, process.env, { sub: 'proof-faults' });
  const patched = await fetch(
    `${cluster.url('provider-delivery')}/admin/v1/platform-accounts/${fixture.provider.accountId}`,
    {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        rateLimit: { requestsPerMinute: 1_000_000 },
        simulator: { enabled: simulator, drivers: 20, timeScale: 60 },
      }),
      signal: AbortSignal.timeout(10_000),
    },
  );
  if (patched.status !== 200)
    throw new Error(`PATCH of the demo platform account: ${patched.status} ${await patched.text()}`);
  return admin;
}

/** Drops the databases of the run's services (their names come from the cluster); `say` reports a failure. */
export async function dropDatabases(cluster, say) {
  const { MongoClient } = createRequire(join(root, 'package.json'))('mongodb');
  const mongo = new MongoClient(cluster.stackEnv.MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
  try {
    await mongo.connect();
    for (const name of cluster.databases()) await mongo.db(name).dropDatabase();
  } catch (error) {
    say(`could not drop the run's databases: ${error.message}`);
  } finally {
    await mongo.close().catch(() => undefined);
  }
}
