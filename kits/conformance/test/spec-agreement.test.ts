import {
  PROVIDER_CONTRACT,
  PROVIDER_EVENT_TYPES,
  PROVIDER_LIMITS,
  PROVIDER_STATUSES,
  SPEC_EVENT_TYPES as OUR_SPEC_EVENT_TYPES,
  TERMINAL_STATUSES,
} from '@marketplace/contracts';
import { CONTRACT, CREATE_LIMITS, SPEC_EVENT_TYPES, STATUSES, TERMINAL } from '../src/spec';

// The kit transcribes the contract on its own (it certifies against the document, and it is run
// outside this repository, so it imports nothing of ours), and so does @marketplace/contracts, from
// which our provider and its OpenAPI document are built. Two transcriptions of one document must
// agree: a change to either that the other does not make fails here.

describe('the kit and @marketplace/contracts read the contract alike', () => {
  it('names the same version and revision', () => {
    expect({ version: CONTRACT.version, revision: CONTRACT.revision }).toEqual(PROVIDER_CONTRACT);
  });

  it('has the same status vocabulary and terminal statuses', () => {
    expect([...STATUSES]).toEqual([...PROVIDER_STATUSES]);
    expect([...TERMINAL].sort()).toEqual([...TERMINAL_STATUSES].sort());
  });

  it("has the spec's event table, and our own types are extensions beyond it", () => {
    expect([...SPEC_EVENT_TYPES]).toEqual([...OUR_SPEC_EVENT_TYPES]);
    const ours = PROVIDER_EVENT_TYPES.filter((type) => !SPEC_EVENT_TYPES.includes(type));
    expect(ours.length).toBeGreaterThan(0);
  });

  it('has the same field limits of a create', () => {
    expect(CREATE_LIMITS).toMatchObject({
      platformReference: PROVIDER_LIMITS.platformReferenceMaxLength,
      idempotencyKey: PROVIDER_LIMITS.idempotencyKeyMaxLength,
      pickupAddress: PROVIDER_LIMITS.addressMaxLength,
      dropoffAddress: PROVIDER_LIMITS.addressMaxLength,
      customerName: PROVIDER_LIMITS.customerNameMaxLength,
      customerPhone: PROVIDER_LIMITS.customerPhoneMaxLength,
      paymentMethod: PROVIDER_LIMITS.paymentMethodMaxLength,
      notes: PROVIDER_LIMITS.notesMaxLength,
      callbackUrl: PROVIDER_LIMITS.callbackUrlMaxLength,
      amountMax: PROVIDER_LIMITS.amountMaximum,
    });
  });
});
