import { TOPICS } from '@marketplace/contracts';
import { waitForCopies, type CopyProgress } from '@marketplace/events';
import type { DeliveriesCopyProgress } from '../usecases/delivery-ownership';

/**
 * The copy of the `deliveries` topic's progress, through the Kafka admin API (CopyProgress: the
 * consumer group's committed offsets and what this process handled, against the offsets at the
 * request's time). `waitForCopies` bounds the wait as a whole, a broker that does not answer too.
 */
export class KafkaDeliveriesCopyProgress implements DeliveriesCopyProgress {
  constructor(
    private readonly progress: CopyProgress,
    private readonly timeoutMs: number,
  ) {}

  handledUpTo(partition: number, offset: string): void {
    this.progress.handledUpTo(partition, offset);
  }

  waitUntil(time: Date): Promise<string | undefined> {
    return waitForCopies([{ name: TOPICS.deliveries, progress: this.progress }], time, { timeoutMs: this.timeoutMs });
  }
}
