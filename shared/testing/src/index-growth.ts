import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';

/**
 * Proves that repository queries are served by indexes, on the real engine: each query is timed
 * with its collections holding 1,000 documents, then 20,000 (the extra ones belong to other
 * owners, so the query's own answer does not change). An index lookup costs about the same at
 * both sizes; a scan costs about 20 times more. Timing, not `explain`, because the local engine
 * has no `explain`, and the timing is what we care about.
 */

export interface LookupCase {
  /** The repository method (as `Repository.method`) and what the case asks of it. */
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

export interface LookupTiming {
  readonly name: string;
  readonly smallMs: number;
  readonly largeMs: number;
}

export const GROWTH_SIZES = { small: 1_000, large: 20_000 } as const;

/** A lookup grows with the data when it takes more than 3 times as long, plus 2 ms of noise. */
export function growsWithData(timing: LookupTiming): boolean {
  return timing.largeMs > 3 * timing.smallMs + 2;
}

/**
 * Fills a collection up to `total` documents made by `make(i)` (i counts from the current size),
 * in batches of 1,000.
 */
export async function fillTo<T extends Document>(
  collection: Collection<T>,
  total: number,
  make: (i: number) => OptionalUnlessRequiredId<T>,
): Promise<void> {
  let count = await collection.estimatedDocumentCount(); // the collection's count, not a scan
  while (count < total) {
    const batch = Array.from({ length: Math.min(1_000, total - count) }, (_, k) => make(count + k));
    await collection.insertMany(batch, { ordered: false });
    count += batch.length;
  }
}

/** Median time of `runs` calls (after one warm-up call). */
async function medianMs(run: () => Promise<unknown>, runs: number): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Times every case at the small size, calls `growTo(large)`, times them again. `growTo(n)` must
 * bring every collection the cases read to n documents (see `fillTo`).
 *
 * A case that looks like a scan is timed again at the large size, up to twice (`retimeRuns` calls
 * each), keeping its fastest median: the engine is shared with other tests, and a burst of their
 * writes can slow an index lookup for a few seconds, while a scan is slow every time.
 */
export async function timeLookups(
  cases: readonly LookupCase[],
  growTo: (total: number) => Promise<void>,
  runs = 15,
  retimeRuns = 5,
): Promise<LookupTiming[]> {
  await growTo(GROWTH_SIZES.small);
  const small = new Map<string, number>();
  for (const c of cases) small.set(c.name, await medianMs(c.run, runs));
  await growTo(GROWTH_SIZES.large);
  const timings: LookupTiming[] = [];
  for (const c of cases) {
    let timing: LookupTiming = { name: c.name, smallMs: small.get(c.name)!, largeMs: await medianMs(c.run, runs) };
    for (let retry = 0; retry < 2 && growsWithData(timing); retry++) {
      timing = { ...timing, largeMs: Math.min(timing.largeMs, await medianMs(c.run, retimeRuns)) };
    }
    timings.push(timing);
  }
  return timings;
}

/** One line per case, for the test's output and its failure message. */
export function describeTimings(timings: readonly LookupTiming[]): string {
  return timings
    .map(
      (t) =>
        `${growsWithData(t) ? 'SCAN ' : 'index'} ${t.name}: ${t.smallMs.toFixed(2)} ms at ${GROWTH_SIZES.small}, ${t.largeMs.toFixed(2)} ms at ${GROWTH_SIZES.large}`,
    )
    .join('\n');
}

/**
 * The query methods of a repository instance, as `Class.method` (inherited ones under the class
 * that declares them), so a test can check that its cases cover each of them: a method added
 * later without a case fails.
 */
export function queryMethodsOf(repository: object): string[] {
  const methods: string[] = [];
  for (
    let proto = Object.getPrototypeOf(repository);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof proto[name] === 'function')
        methods.push(`${proto.constructor.name}.${name}`);
    }
  }
  return methods;
}

/** The `Repository.method` part of a case name ("OrdersRepository.find: by id" → "OrdersRepository.find"). */
export function methodOfCase(name: string): string {
  return name.split(':')[0]!.trim();
}
