import type { ReceivedCallback } from '../model';
import { TestAborted, TestFailure } from '../context/outcomes';
import type { CallbackBox, CallbackEvent } from '../test-api';

export interface BoxSettings {
  label: string;
  url: string;
  token: string;
  /** waitFor's default: the declaration's lifecycle timeout. */
  defaultTimeoutMs: number;
  /** True once the test that owns the box is over (its waits then stop). */
  isAborted?: () => boolean;
}

const WAIT_STEP_MS = 100;

export const parseEvent = (callback: ReceivedCallback): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(callback.body.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/** One callback URL of the receiver: what arrived at it, and the answers it owes (failNext). */
export class ReceiverBox implements CallbackBox {
  readonly label: string;
  readonly url: string;
  readonly token: string;
  private readonly arrived: ReceivedCallback[] = [];
  private failures: { count: number; status: number } = { count: 0, status: 204 };

  constructor(private readonly settings: BoxSettings) {
    this.label = settings.label;
    this.url = settings.url;
    this.token = settings.token;
  }

  received(): ReceivedCallback[] {
    return [...this.arrived];
  }

  events(): CallbackEvent[] {
    return this.arrived.map((callback) => ({ callback, event: parseEvent(callback) }));
  }

  async waitFor(
    what: string,
    predicate: (events: CallbackEvent[]) => boolean,
    timeoutMs = this.settings.defaultTimeoutMs,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (predicate(this.events())) return;
      if (this.settings.isAborted?.()) throw new TestAborted();
      if (Date.now() >= deadline) {
        throw new TestFailure(
          `${what} not reached within ${Math.round(timeoutMs / 1000)} s (${this.arrived.length} callback(s) arrived at ${this.label})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }

  failNext(count: number, status: number): void {
    this.failures = { count, status };
  }

  /** Called by the receiver for each request: records it and says what to answer. */
  accept(callback: Omit<ReceivedCallback, 'answeredStatus' | 'label'>, tooLarge: boolean): ReceivedCallback {
    let answeredStatus = 204;
    if (tooLarge) answeredStatus = 413;
    else if (this.failures.count > 0) {
      this.failures.count -= 1;
      answeredStatus = this.failures.status;
    }
    const recorded: ReceivedCallback = { ...callback, label: this.label, answeredStatus };
    this.arrived.push(recorded);
    return recorded;
  }
}
