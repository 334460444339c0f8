import { runProof } from './support/run-proof';

// CI's run of the fault proof (scripts/proof/faults.mjs --short): the fixed schedule of faults
// (lib/nemesis.mjs) under about 20 requests a second of mixed traffic: kill -9 of every service,
// every service doubled with the first killed while the groups rebalance, kill -9 of Kafka, the
// schema registry, the MongoDB-wire engine and Redis, the partner endpoint hanging, poison on
// every consumed topic, ordering-pricing paused past its leases, Kafka away for 30 s, and SIGTERM
// of every service. The script checks every promise (nothing acknowledged lost or duplicated,
// every webhook and callback delivered, signed and in order, the couriers' callbacks all there,
// replays answered with the original, recovery within its bounds, nothing cut off at a SIGTERM,
// no 500, no secret in the logs) and exits non-zero when one is broken. Longer runs: `npm run
// proof:faults -- --seed N --minutes M`.
const TIMEOUT_MS = 15 * 60_000;

it(
  'keeps every promise under the fixed schedule of faults (services, components, partner endpoint, poison, pause, outage)',
  () => runProof(['--short'], TIMEOUT_MS, 'proof:faults: counts'),
  TIMEOUT_MS,
);
