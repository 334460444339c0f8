import { FairDispatcher } from './fair-dispatcher';

/** A job that finishes when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, job: () => opened };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairDispatcher', () => {
  it('runs at most perEndpoint jobs of one endpoint, while other endpoints go on', async () => {
    const d = new FairDispatcher({ overall: 10, perEndpoint: 2 });
    const started: string[] = [];
    const slow = gate();
    for (let i = 0; i < 5; i++) void d.run('slow', () => (started.push(`slow${i}`), slow.job()));
    const fast: Promise<unknown>[] = [];
    for (let i = 0; i < 3; i++) fast.push(d.run('fast', async () => void started.push(`fast${i}`)));
    await Promise.all(fast);
    expect(started.filter((s) => s.startsWith('slow'))).toEqual(['slow0', 'slow1']);
    expect(started.filter((s) => s.startsWith('fast'))).toHaveLength(3);
    slow.open();
    await d.idle();
    expect(started.filter((s) => s.startsWith('slow'))).toHaveLength(5);
  });

  it('never runs more than the overall limit, and serves waiting endpoints in turn', async () => {
    const d = new FairDispatcher({ overall: 2, perEndpoint: 2 });
    const gates = new Map<string, ReturnType<typeof gate>>();
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const job = (name: string) => () => {
      order.push(name);
      running++;
      peak = Math.max(peak, running);
      const g = gate();
      gates.set(name, g);
      return g.job().finally(() => running--);
    };
    for (const name of ['a1', 'a2', 'a3', 'a4']) void d.run('a', job(name));
    for (const name of ['b1', 'b2']) void d.run('b', job(name));
    await tick();
    expect(order).toEqual(['a1', 'a2']);
    gates.get('a1')!.open();
    await tick();
    await tick();
    expect(order).toEqual(['a1', 'a2', 'b1']); // b's turn, not a3
    gates.get('a2')!.open();
    await tick();
    await tick();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const g of gates.values()) g.open();
    for (let i = 0; i < 6; i++) {
      await tick();
      for (const g of gates.values()) g.open();
    }
    await d.idle();
    expect(peak).toBe(2);
    expect(order.sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b2']);
  });

  it('passes results and errors through', async () => {
    const d = new FairDispatcher({ overall: 1, perEndpoint: 1 });
    await expect(d.run('x', async () => 42)).resolves.toBe(42);
    await expect(d.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await d.idle();
    expect(d.load).toBe(0);
  });
});
