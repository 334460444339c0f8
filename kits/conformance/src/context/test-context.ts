import type { Exchange } from '../model';
import { createProviderClient } from '../http/provider-client';
import type { ReceiverBox } from '../receiver/box';
import type { ConformanceTest, CreateOptions, TestContext, TrackedDelivery } from '../test-api';
import { buildDeliveryRequest } from './delivery-request';
import { TestFailure, TestSkip } from './outcomes';
import { Sleeper } from './sleeper';
import type { RunState } from './run-state';
import { createTrackedDelivery } from './tracked-delivery';

/** What one test recorded: its exchanges, the boxes it made, its notes. */
export interface TestEvidence {
  exchanges: Exchange[];
  boxes: ReceiverBox[];
  notes: string[];
}

export interface TestSession {
  context: TestContext;
  evidence: TestEvidence;
  /** Ends the test's waits (its time is over). */
  abort(): void;
}

const excerpt = (text: string | null, max = 500): string =>
  text === null ? '(no body)' : text.length > max ? `${text.slice(0, max)}…` : text;

/** A test's context: its own client and evidence, over the run's shared state. */
export function createTestSession(run: RunState, test: ConformanceTest): TestSession {
  const evidence: TestEvidence = { exchanges: [], boxes: [], notes: [] };
  const sleeper = new Sleeper();
  const isAborted = (): boolean => sleeper.isAborted;
  const lifecycleTimeoutMs = run.declaration.sandbox.lifecycleTimeoutSeconds * 1000;
  const provider = createProviderClient({
    baseUrl: run.baseUrl,
    apiKey: run.apiKey,
    record: (exchange) => {
      evidence.exchanges.push(exchange);
      run.exchanges.push(exchange);
    },
  });
  const box = (label: string): ReceiverBox => {
    const made = run.receiver.box(label, { defaultTimeoutMs: lifecycleTimeoutMs, isAborted });
    evidence.boxes.push(made);
    return made;
  };
  const fail = (message: string): never => {
    throw new TestFailure(message);
  };
  const context: TestContext = {
    declaration: run.declaration,
    provider,
    callbacks: { box, webhookSecret: run.webhookSecret },
    baseUrl: run.baseUrl,
    apiKey: run.apiKey,
    lifecycleTimeoutMs,
    deliveryRequest: (overrides, callback) => buildDeliveryRequest(run.declaration, overrides, callback ?? null),
    createDelivery: (options = {}) =>
      createDelivery(run, test, { provider, box, isAborted, lifecycleTimeoutMs }, options),
    check(condition: unknown, message: string): asserts condition {
      if (!condition) fail(message);
    },
    fail,
    skip: (reason: string): never => {
      throw new TestSkip(reason);
    },
    note: (text) => void evidence.notes.push(text),
    sleep: (ms) => sleeper.sleep(ms),
    waitUntil: (what, probe, timeoutMs, everyMs) => sleeper.waitUntil(what, probe, timeoutMs, everyMs),
    allExchanges: () => run.exchanges,
    allCallbacks: () => run.receiver.all(),
    allDeliveries: () => run.deliveries,
  };
  return { context, evidence, abort: () => sleeper.abort() };
}

interface CreateTools {
  provider: TestContext['provider'];
  box: (label: string) => ReceiverBox;
  isAborted: () => boolean;
  lifecycleTimeoutMs: number;
}

async function createDelivery(
  run: RunState,
  test: ConformanceTest,
  tools: CreateTools,
  options: CreateOptions,
): Promise<TrackedDelivery> {
  const callback = options.callback === false ? null : tools.box(options.label ?? `${test.id}-delivery`);
  const hold = options.hold ? { preparationTimeMinutes: run.declaration.sandbox.holdPreparationMinutes } : {};
  const request = buildDeliveryRequest(run.declaration, { ...hold, ...options.overrides }, callback);
  const exchange = await tools.provider.call('POST', '/deliveries', { body: request });
  const json = exchange.json as Record<string, unknown> | undefined;
  const id = json?.providerDeliveryId;
  if (exchange.status !== 200 || json?.accepted !== true || typeof id !== 'string' || id.trim() === '') {
    const answer =
      exchange.status === null
        ? `no answer (${exchange.error ?? 'unknown error'})`
        : `${exchange.status} ${excerpt(exchange.responseBody)}`;
    throw new TestFailure(
      `creating a delivery failed: expected 200 with accepted true and a providerDeliveryId, got ${answer}`,
    );
  }
  const delivery = createTrackedDelivery({
    platformReference: String(request.platformReference),
    providerDeliveryId: id,
    request,
    callback,
    provider: tools.provider,
    supportsPolling: run.declaration.capabilities.supportsPolling === true,
    lifecycleTimeoutMs: tools.lifecycleTimeoutMs,
    isAborted: tools.isAborted,
  });
  run.deliveries.push(delivery);
  return delivery;
}
