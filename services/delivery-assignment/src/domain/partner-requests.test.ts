import type { DeliveryAssignmentResponse } from '@marketplace/contracts';
import type { Delivery } from './delivery';
import { partnerRequestId, replay, storedRequest, withRequest, type PartnerRequest } from './partner-requests';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
const response = { assignmentId: 'a1', orderId: 'o1', status: 2 } as DeliveryAssignmentResponse;
const record = (id: string, expiresMinute: number): PartnerRequest => ({
  id,
  fingerprint: 'fingerprint-of-a1',
  response,
  createdAt: at(0),
  expiresAt: at(expiresMinute),
});
const delivery = (partnerRequests?: PartnerRequest[]) => ({ _id: 'o1', partnerRequests }) as Delivery;

describe('partner requests kept for Idempotency-Key repeats', () => {
  it('are keyed by installation and key, without the key in clear', () => {
    expect(partnerRequestId('i1', 'k')).toBe(partnerRequestId('i1', 'k'));
    expect(partnerRequestId('i1', 'k')).not.toBe(partnerRequestId('i2', 'k'));
    expect(partnerRequestId('i1', 'secret-looking-key')).not.toContain('secret-looking-key');
  });

  it('answer a repeat with the stored response, and another request with the same key with 409', () => {
    const stored = record('r1', 10);
    expect(replay(stored, 'fingerprint-of-a1')).toBe(response);
    expect(() => replay(stored, 'fingerprint-of-a2')).toThrow(
      expect.objectContaining({ kind: 'conflict', code: 'idempotency.key_reused' }),
    );
  });

  it('are found only until their retention ends', () => {
    const d = delivery([record('r1', 10)]);
    expect(storedRequest(d, 'r1', at(9))).toBeDefined();
    expect(storedRequest(d, 'r1', at(10))).toBeUndefined();
    expect(storedRequest(d, 'r2', at(9))).toBeUndefined();
    expect(storedRequest(delivery(), 'r1', at(9))).toBeUndefined();
  });

  it('are added to the delivery, the expired ones dropped on the way', () => {
    const d = withRequest(delivery([record('old', 5), record('live', 30)]), record('new', 40), at(10));
    expect(d.partnerRequests!.map((r) => r.id)).toEqual(['live', 'new']);
    expect(withRequest(delivery(), record('new', 40), at(10)).partnerRequests!.map((r) => r.id)).toEqual(['new']);
  });
});
