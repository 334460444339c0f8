import { AttemptScheduler, type StartedAttempt } from './attempt-scheduler';
import { EndpointCircuits } from './endpoint-circuit';

type Job = string;
const circuit = { failuresToTrip: 2, probeIntervalMs: 1000 };

function scheduler(overall: number, perEndpoint: number) {
  return new AttemptScheduler<Job>({ overall, perEndpoint }, new EndpointCircuits(circuit));
}
const attempt = (endpoint: string, job: Job, dueAt: number, first = false) => ({ endpoint, first, dueAt, job });

/** Starts what may start now, in order. */
function drain(s: AttemptScheduler<Job>, now = 0): Array<StartedAttempt<Job>> {
  const started: Array<StartedAttempt<Job>> = [];
  for (let next = s.next(now); next; next = s.next(now)) started.push(next);
  return started;
}
const jobs = (started: Array<StartedAttempt<Job>>) => started.map((s) => s.attempt.job);

/** Makes `endpoint` fail `times` attempts (its circuit counts them). */
function fail(s: AttemptScheduler<Job>, endpoint: string, times: number, now = 0): void {
  for (let i = 0; i < times; i++) {
    s.add(attempt(endpoint, `${endpoint}-warm${i}`, -1));
    const started = s.next(now)!;
    expect(started.attempt.endpoint).toBe(endpoint);
    s.finished(started, 'unreachable', now);
  }
}

describe('AttemptScheduler', () => {
  it('starts a healthy endpoint first attempt before a storm of retries due earlier, and before its retries', () => {
    const s = scheduler(1, 4);
    for (let i = 0; i < 100; i++) s.add(attempt(`dead${i % 5}`, `storm${i}`, i));
    s.add(attempt('live', 'live-retry', 50));
    s.add(attempt('other', 'fresh', 1000, true));
    const first = s.next(0)!;
    expect(first.attempt.job).toBe('fresh');
    s.finished(first, 'reached', 0);
    expect(s.next(0)!.attempt.job).toBe('storm0'); // then due order among equals
  });

  it('keeps at most perEndpoint in flight for a healthy endpoint, and the overall bound', () => {
    const s = scheduler(5, 2);
    for (let i = 0; i < 4; i++) s.add(attempt('a', `a${i}`, i));
    for (let i = 0; i < 4; i++) s.add(attempt('b', `b${i}`, i));
    const started = drain(s);
    expect(jobs(started).filter((j) => j.startsWith('a'))).toHaveLength(2);
    expect(jobs(started).filter((j) => j.startsWith('b'))).toHaveLength(2);
    expect(s.inFlight).toBe(4);
    s.add(attempt('c', 'c0', 0));
    s.add(attempt('d', 'd0', 0));
    expect(jobs(drain(s))).toEqual(['c0']); // 5 in flight: full
    s.finished(started[0]!, 'reached', 0);
    expect(jobs(drain(s))).toEqual(['d0']); // the endpoint with none in flight first
  });

  it('gives a failing endpoint one slot, and failing endpoints together at most half the slots', () => {
    const s = scheduler(4, 4);
    for (const e of ['x', 'y', 'z']) fail(s, e, 1);
    for (const e of ['x', 'y', 'z']) for (let i = 0; i < 3; i++) s.add(attempt(e, `${e}${i}`, i));
    const started = drain(s);
    expect(jobs(started)).toEqual(['x0', 'y0']); // 2 of 4 slots, one each
    for (let i = 0; i < 3; i++) s.add(attempt('live', `live${i}`, 100 + i));
    expect(jobs(drain(s))).toEqual(['live0', 'live1']); // the healthy half stays free for them
  });

  it('parks an open endpoint: one probe per interval in due order, then the rest in due order, each once', () => {
    const s = scheduler(8, 4);
    fail(s, 'dead', 2, 0); // trips at 0: probe at 1000
    expect(s.circuits.state('dead')).toBe('open');
    for (const due of [5, 3, 9, 1, 7]) s.add(attempt('dead', `d${due}`, due));
    s.add(attempt('live', 'l0', 100));
    expect(jobs(drain(s, 500))).toEqual(['l0']); // parked: nothing of dead goes
    expect(s.queued).toBe(5);
    expect(s.nextWakeAt()).toBe(1000);

    const probe = drain(s, 1000);
    expect(jobs(probe)).toEqual(['d1']); // the attempt due first, alone
    expect(probe[0]!.probe).toBe(true);
    expect(drain(s, 1500)).toEqual([]); // nothing else while the probe is out
    s.finished(probe[0]!, 'unreachable', 1100);
    expect(drain(s, 2099)).toEqual([]);
    expect(s.nextWakeAt()).toBe(2100);

    const second = drain(s, 2100);
    expect(jobs(second)).toEqual(['d3']);
    s.finished(second[0]!, 'reached', 2150);
    expect(s.circuits.state('dead')).toBe('healthy');
    const resumed = drain(s, 2150);
    expect(jobs(resumed)).toEqual(['d5', 'd7', 'd9']); // due order, none twice
    expect(s.queued).toBe(0);
  });

  it('removes queued attempts of lost partitions and clears on stop', () => {
    const s = scheduler(1, 1);
    s.add(attempt('a', 'keep', 0));
    s.add(attempt('a', 'drop', 1));
    s.add(attempt('b', 'drop-too', 0));
    expect(s.remove((a) => a.job.startsWith('drop')).map((a) => a.job)).toEqual(['drop', 'drop-too']);
    expect(s.queued).toBe(1);
    s.clear();
    expect(s.queued).toBe(0);
    expect(s.next(0)).toBeUndefined();
  });
});
