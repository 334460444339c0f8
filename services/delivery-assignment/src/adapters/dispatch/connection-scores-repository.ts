import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage } from '@marketplace/store';
import type { CallbackDelta, ScoreCounters, ScoreDelta } from '../../domain/dispatch/scorecard';
import type { ConnectionReader } from './connections-repository';

type ScoreDoc = Partial<ScoreCounters> & { _id: string; ownerKey: string };

const PLATFORM = 'platform';
const keysOf = (reader: ConnectionReader): string[] =>
  'platform' in reader ? [PLATFORM] : [reader.tenantId, PLATFORM];

/**
 * Collection `connection_scores`: one record per connection (`_id` the connection id), counts and
 * sums only, each change an increment. Read by whoever may read the connection (its owner key
 * stored with it: the tenant's id, or `platform` for an offered one).
 */
export class ConnectionScoresRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'connection_scores',
    // add and find go by `_id`.
    indexes: [],
  };

  private readonly scores: Collection<ScoreDoc>;

  constructor(db: Db) {
    this.scores = db.collection(ConnectionScoresRepository.storage.collection);
  }

  /** Adds the increments to the connection's record (made on its first). */
  async add(
    owner: { connectionId: string; tenantId: string | null },
    delta: ScoreDelta | CallbackDelta,
  ): Promise<void> {
    const inc = Object.fromEntries(Object.entries(delta).filter(([, v]) => typeof v === 'number' && v !== 0));
    if (Object.keys(inc).length === 0) return;
    await this.scores.updateOne(
      { _id: owner.connectionId },
      { $inc: inc, $setOnInsert: { ownerKey: owner.tenantId ?? PLATFORM } },
      { upsert: true },
    );
  }

  async find(reader: ConnectionReader, connectionId: string): Promise<Partial<ScoreCounters> | undefined> {
    const doc = await this.scores.findOne({ _id: connectionId });
    if (!doc || !('platform' in reader || keysOf(reader).includes(doc.ownerKey))) return undefined;
    const { _id: _, ownerKey: _key, ...counters } = doc;
    return counters;
  }
}
