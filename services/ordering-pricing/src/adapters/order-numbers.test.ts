import type { TenantOwner } from '@marketplace/store';
import type { OrderClaimsRepository } from './order-claims-repository';
import { FIRST_ORDER_NUMBER, OrderNumbers } from './order-numbers';

/** The claims an order number needs, in memory: unique numbers per tenant, and a counter (tenant t1's). */
function fakeClaims(taken: number[] = [], counter?: number) {
  const numbers = new Set(taken.map((n) => `t1:${n}`));
  const calls = { inserts: 0, counterReads: 0 };
  const claims = {
    async findOrderCounter() {
      calls.counterReads++;
      await new Promise((resolve) => setImmediate(resolve));
      return counter;
    },
    async claimOrderNumber(owner: TenantOwner, n: number) {
      calls.inserts++;
      await new Promise((resolve) => setImmediate(resolve)); // a store round trip: claims overlap
      if (numbers.has(`${owner.tenantId}:${n}`)) return false;
      numbers.add(`${owner.tenantId}:${n}`);
      return true;
    },
    async raiseOrderCounter(_owner: TenantOwner, n: number) {
      counter = Math.max(counter ?? 0, n);
    },
  };
  return { claims: claims as unknown as OrderClaimsRepository, calls, numbers };
}

const owner = { tenantId: 't1' } as TenantOwner;

describe('OrderNumbers', () => {
  it('gives concurrent orders of one process distinct numbers, one insert each', async () => {
    const { claims, calls } = fakeClaims();
    const numbers = new OrderNumbers(claims);
    const got = await Promise.all(Array.from({ length: 50 }, (_, i) => numbers.claim(owner, `o${i}`)));
    expect(new Set(got).size).toBe(50);
    expect(got.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => FIRST_ORDER_NUMBER + i));
    // Each claim starting from the last stored number made 50 orders cost 1,275 inserts.
    expect(calls.inserts).toBe(50);
    expect(calls.counterReads).toBe(1);
  });

  it('skips numbers another instance took', async () => {
    const { claims, calls } = fakeClaims([1001, 1002, 1004]);
    const numbers = new OrderNumbers(claims);
    expect(await numbers.claim(owner, 'a')).toBe('1003');
    expect(await numbers.claim(owner, 'b')).toBe('1005');
    expect(calls.inserts).toBe(5);
  });

  it('starts after a restart from the counter, probing past the numbers claimed since it was written', async () => {
    const taken = Array.from({ length: 13 }, (_, i) => 1001 + i); // 1001..1013, counter written at 1010
    const { claims } = fakeClaims(taken, 1010);
    expect(await new OrderNumbers(claims).claim(owner, 'a')).toBe('1014');
  });

  it('numbers each tenant on its own', async () => {
    const { claims } = fakeClaims();
    const numbers = new OrderNumbers(claims);
    expect(await numbers.claim({ tenantId: 'a' }, 'x')).toBe('1001');
    expect(await numbers.claim({ tenantId: 'a' }, 'y')).toBe('1002');
    expect(await numbers.claim({ tenantId: 'b' }, 'z')).toBe('1001');
    expect(await numbers.claim({ tenantId: 'a' }, 'w')).toBe('1003');
  });
});
