import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_STATUSES, PROVIDER_TRANSITIONS, type ProviderStatusName } from '@marketplace/contracts';
import { cancelOutcome, mayUpdate, returnOutcome, type UpdateField } from '../src/domain/lifecycle';

// What this service declares to the conformance kit (kits/conformance/declarations/provider-delivery.json:
// the cancellation and return outcomes, the update rules and the moves the contract leaves to each
// provider) is what its own rules do. A rule changed in src/domain/lifecycle.ts without its
// declaration, or the other way round, fails here, before the kit would fail the provider.

interface Declaration {
  transitions: Record<string, string[]>;
  cancellation: Record<string, { before_pickup: string; after_pickup: string }>;
  returns: Record<string, string>;
  updates: Record<string, string[]>;
}
const declaration = JSON.parse(
  readFileSync(join(__dirname, '../../../kits/conformance/declarations/provider-delivery.json'), 'utf8'),
) as Declaration;
const outcome = (confirmed: boolean) => (confirmed ? 'confirmed' : 'refused');

describe("provider-delivery's conformance declaration", () => {
  it('declares the moves of PROVIDER_TRANSITIONS', () => {
    expect(declaration.transitions).toEqual(PROVIDER_TRANSITIONS);
  });

  it.each(PROVIDER_STATUSES)('declares the cancellation outcomes of %s', (status) => {
    expect(declaration.cancellation[status]).toEqual({
      before_pickup: outcome(cancelOutcome(status, 'before_pickup').confirmed),
      after_pickup: outcome(cancelOutcome(status, 'after_pickup').confirmed),
    });
  });

  it.each(PROVIDER_STATUSES)('declares the return outcome of %s', (status) => {
    expect(declaration.returns[status]).toBe(outcome(returnOutcome(status).accepted));
  });

  it('declares, for each field group, the statuses in which an update is accepted', () => {
    const fields = Object.keys(declaration.updates) as UpdateField[];
    expect(fields.length).toBe(11);
    for (const field of fields) {
      const allowed = PROVIDER_STATUSES.filter((status: ProviderStatusName) => mayUpdate(field, status));
      expect([field, declaration.updates[field]]).toEqual([field, allowed]);
    }
  });
});
