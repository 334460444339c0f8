import { EndpointCircuits } from './endpoint-circuit';

const settings = { failuresToTrip: 3, probeIntervalMs: 1000 };

describe('EndpointCircuits', () => {
  it('opens after failuresToTrip consecutive unreachable attempts, and an answer resets the count', () => {
    const c = new EndpointCircuits(settings);
    c.report('a', 'unreachable', 0);
    c.report('a', 'unreachable', 0);
    expect(c.state('a')).toBe('failing');
    c.report('a', 'reached', 0);
    expect(c.state('a')).toBe('healthy');
    c.report('a', 'unreachable', 0);
    c.report('a', 'unreachable', 0);
    expect(c.state('a')).toBe('failing');
    c.report('a', 'unreachable', 10);
    expect(c.state('a')).toBe('open');
    expect(c.openCount).toBe(1);
    expect(c.state('b')).toBe('healthy');
  });

  it('an attempt that sent nothing says nothing about the endpoint', () => {
    const c = new EndpointCircuits(settings);
    for (let i = 0; i < 5; i++) c.report('a', 'not-sent', 0);
    expect(c.state('a')).toBe('healthy');
  });

  it('lets one probe go per interval; a failed probe keeps it open, an answered one closes it', () => {
    const c = new EndpointCircuits(settings);
    for (let i = 0; i < 3; i++) c.report('a', 'unreachable', 100);
    expect(c.probeAt('a')).toBe(1100);
    expect(c.mayProbe('a', 1099)).toBe(false);
    expect(c.mayProbe('a', 1100)).toBe(true);
    c.probeStarted('a');
    expect(c.mayProbe('a', 5000)).toBe(false); // one probe at a time
    expect(c.probeAt('a')).toBeUndefined();
    c.report('a', 'unreachable', 1200, true);
    expect(c.state('a')).toBe('open');
    expect(c.probeAt('a')).toBe(2200);
    expect(c.mayProbe('a', 2199)).toBe(false);
    c.probeStarted('a');
    c.report('a', 'reached', 2300, true);
    expect(c.state('a')).toBe('healthy');
    expect(c.openCount).toBe(0);
  });

  it('a probe that sent nothing (a stale attempt) lets the next one probe at once', () => {
    const c = new EndpointCircuits(settings);
    for (let i = 0; i < 3; i++) c.report('a', 'unreachable', 0);
    c.probeStarted('a');
    c.report('a', 'not-sent', 1500, true);
    expect(c.state('a')).toBe('open');
    expect(c.mayProbe('a', 1500)).toBe(true);
  });

  it('an answer to an attempt already on the wire closes an open circuit', () => {
    const c = new EndpointCircuits(settings);
    for (let i = 0; i < 3; i++) c.report('a', 'unreachable', 0);
    c.report('a', 'reached', 10);
    expect(c.state('a')).toBe('healthy');
  });
});
