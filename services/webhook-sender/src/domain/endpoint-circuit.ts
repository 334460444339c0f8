/**
 * What one attempt taught about its endpoint: `reached` (an answer came, whatever its status),
 * `unreachable` (no answer: connection refused, DNS failure, timeout, reset, TLS) or `not-sent`
 * (no request left: the attempt was stale, the delivery cancelled, held, or our own failure).
 */
export type AttemptReach = 'reached' | 'unreachable' | 'not-sent';

export interface CircuitSettings {
  /** Consecutive unreachable attempts that open an endpoint's circuit. */
  failuresToTrip: number;
  /** While open, one attempt (the probe) goes this long after the circuit opened or the last probe failed. */
  probeIntervalMs: number;
}

/** How the scheduler treats an endpoint now. */
export type CircuitState =
  /** No failure since the last answer: full share. */
  | 'healthy'
  /** Unreachable lately, not yet tripped: a reduced share, after the healthy endpoints. */
  | 'failing'
  /** Tripped: its due attempts are parked; one probe may go (`mayProbe`). */
  | 'open';

interface Circuit {
  failures: number;
  /** Set while open: when the next probe may go. */
  probeAt?: number;
  /** A probe is on the wire: no other attempt of the endpoint goes until it has reported. */
  probing: boolean;
}

/**
 * One circuit per endpoint owner (an installation, or a platform account). It opens after
 * `failuresToTrip` consecutive unreachable attempts; while open, attempts are parked and one probe
 * every `probeIntervalMs` decides: an answer (any status: the endpoint is up, its verdicts are the
 * retry policy's business) closes it, another unreachable attempt keeps it open for another
 * interval. An answer to any attempt, a probe or one that was already on the wire, closes it.
 *
 * Kept in memory only: after a restart every circuit starts closed and trips again after
 * `failuresToTrip` attempts, which are real attempts of the schedule (recorded, counted once),
 * so rebuilding the state costs a few attempts and changes no delivery's outcome.
 * Healthy endpoints are not kept (the map holds only endpoints that failed since their last answer).
 */
export class EndpointCircuits {
  private readonly circuits = new Map<string, Circuit>();

  constructor(private readonly settings: CircuitSettings) {}

  state(endpoint: string): CircuitState {
    const circuit = this.circuits.get(endpoint);
    if (!circuit) return 'healthy';
    return circuit.probeAt !== undefined ? 'open' : 'failing';
  }

  /** Whether an open circuit lets its probe go now. */
  mayProbe(endpoint: string, now: number): boolean {
    const circuit = this.circuits.get(endpoint);
    return circuit?.probeAt !== undefined && !circuit.probing && now >= circuit.probeAt;
  }

  /** The probe of an open circuit has started. */
  probeStarted(endpoint: string): void {
    const circuit = this.circuits.get(endpoint);
    if (circuit) circuit.probing = true;
  }

  /**
   * Reports an attempt's reach. `probe`: it was the open circuit's probe (a probe that sent
   * nothing, a stale attempt say, lets the next parked attempt probe at once: nothing was learned).
   */
  report(endpoint: string, reach: AttemptReach, now: number, probe = false): void {
    const circuit = this.circuits.get(endpoint);
    if (reach === 'reached') {
      this.circuits.delete(endpoint);
      return;
    }
    if (reach === 'not-sent') {
      if (probe && circuit) circuit.probing = false;
      return;
    }
    const next = circuit ?? { failures: 0, probing: false };
    next.failures++;
    if (probe) next.probing = false;
    // Trips at the threshold; an open circuit's failed probe (or a late failure) starts a new interval.
    if (next.failures >= this.settings.failuresToTrip && !next.probing)
      next.probeAt = now + this.settings.probeIntervalMs;
    this.circuits.set(endpoint, next);
  }

  /** When the endpoint's open circuit may probe next (undefined: not open, or its probe is on the wire). */
  probeAt(endpoint: string): number | undefined {
    const circuit = this.circuits.get(endpoint);
    return circuit && !circuit.probing ? circuit.probeAt : undefined;
  }

  /** Open circuits (a gauge). */
  get openCount(): number {
    let open = 0;
    for (const circuit of this.circuits.values()) if (circuit.probeAt !== undefined) open++;
    return open;
  }
}
