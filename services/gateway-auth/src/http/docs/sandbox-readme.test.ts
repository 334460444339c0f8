import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_SCENARIOS } from '@marketplace/contracts';
import { SANDBOX } from '../../domain/sandbox';

// The partner kit's README documents each scenario (what it needs, the webhooks it makes) for a
// partner who reads nothing else: its table must say what the gateway's table does.

const README = readFileSync(join(__dirname, '../../../../../kits/clients/README.md'), 'utf8');
const rows = new Map(
  [...README.matchAll(/^\| `([a-z]+\.[a-z]+)` \| ([^|]*) \| [^|]* \| ([^|]*) \|$/gm)].map((m) => [
    m[1]!,
    { needs: m[2]!, emits: m[3]! },
  ]),
);

describe('the sandbox scenarios', () => {
  it('has a row of the table for every scenario of the contract, and no other', () => {
    expect(Object.keys(SANDBOX).sort()).toEqual([...SANDBOX_SCENARIOS].sort());
  });

  it.each(SANDBOX_SCENARIOS.map((name) => [name]))(
    '%s: the README says what it needs and the webhooks it makes',
    (name) => {
      const row = rows.get(name);
      expect(row).toBeDefined();
      const needs = [...row!.needs.matchAll(/`(\w+)`/g)].map((m) => m[1]);
      expect(needs).toEqual([...SANDBOX[name].needs]);
      const emitted = [...row!.emits.matchAll(/`([a-z]+\.[a-z]+)`/g)].map((m) => m[1]);
      expect(emitted).toEqual(SANDBOX[name].emits.map((e) => e.type));
    },
  );

  it('names each webhook to a receiver the scenario can reach', () => {
    for (const [name, scenario] of Object.entries(SANDBOX))
      for (const emitted of scenario.emits)
        if (emitted.to === 'installationId')
          expect(SANDBOX[name as keyof typeof SANDBOX].needs).toContain('installationId');
  });
});
