// The planted defects (scripts/proof/plants/README.md): which service each goes into, from which of
// its starts (1: every start; 2: only the starts after a fault, as a service that never recovers).
import { join } from 'node:path';
import { root } from '../../services.mjs';

export const PLANTS = {
  'never-recovers': { service: 'ordering-pricing', fromStart: 2 },
  'outbox-drop': { service: 'ordering-pricing', fromStart: 1 },
  'callback-twice': { service: 'webhook-sender', fromStart: 1 },
};

/** The `--require` arguments of the `nth` start of `service` under the planted defects `names`. */
export function plantArguments(names, service, nth) {
  return names
    .filter((name) => PLANTS[name].service === service && nth >= PLANTS[name].fromStart)
    .flatMap((name) => ['--require', join(root, 'scripts', 'proof', 'plants', `${name}.cjs`)]);
}

/** The names from `--plant a,b` (each must be known). */
export function plantsOf(arg) {
  const names = (arg ?? '').split(',').filter(Boolean);
  for (const name of names)
    if (!PLANTS[name]) throw new Error(`unknown plant ${name} (known: ${Object.keys(PLANTS).join(', ')})`);
  return names;
}
