import { MongoClient, type Db, type IndexDescription } from 'mongodb';
import type { Logger } from '@marketplace/logging';

export interface MongoSettings {
  url: string;
  /** The service's own database; no service reads another's. */
  database: string;
  logger: Logger;
}

export interface MongoStore {
  client: MongoClient;
  db: Db;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to MongoDB (mongo-java-server locally, see scripts/stack/README.md). Short server-selection and socket timeouts make a dead
 * database fail requests and readiness quickly instead of queueing them for 30 seconds.
 */
export async function connectMongo({ url, database, logger }: MongoSettings): Promise<MongoStore> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: 3000,
    connectTimeoutMS: 3000,
    socketTimeoutMS: 20_000,
    maxPoolSize: 20,
    // Off on every engine: the local one has no sessions, and our writes are made safe to repeat
    // by their own keys (claims by unique insert, versioned updates), not by the driver.
    retryWrites: false,
    appName: database,
  });
  await client.connect();
  const db = client.db(database);
  logger.info({ database }, 'connected to MongoDB');
  return {
    client,
    db,
    ping: async () => {
      await db.command({ ping: 1 });
    },
    close: () => client.close(),
  };
}

/** Indexes each collection needs, created at start. Every index must have a `name`. */
export type IndexPlan = Record<string, IndexDescription[]>;

/**
 * Creates the indexes a collection does not have yet, by name. Only the missing ones: a restart
 * then costs one listIndexes per collection, and no engine is asked to rebuild what it has.
 */
export async function ensureIndexes(db: Db, plan: IndexPlan): Promise<void> {
  for (const [collection, indexes] of Object.entries(plan)) {
    if (indexes.length === 0) continue;
    const existing = new Set(
      (
        await db
          .collection(collection)
          .listIndexes()
          .toArray()
          .catch(() => [])
      ).map((index: { name?: unknown }) => String(index.name)),
    );
    const missing = indexes.filter((index) => !index.name || !existing.has(index.name));
    if (missing.length > 0) await db.collection(collection).createIndexes(missing);
  }
}

/** MongoDB's duplicate-key error (a unique index rejected the write). */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 11000;
}
