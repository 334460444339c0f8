import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage } from '@marketplace/store';
import type { AppDoc } from './documents';

/**
 * The marketplace's apps, collection `apps`. Apps belong to the platform (administrators create
 * them, every tenant browses them), so no method takes an owner.
 */
export class AppsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'apps',
    indexes: [
      // The unique `_id` (implicit) serves findById and findByIds (an `$in` on `_id`).
      // insert (a taken slug is a duplicate key) and findBySlug.
      { key: { slug: 1 }, name: 'slug_unique', unique: true },
      // listAll: on MongoDB 7 the sort and limit walk this index (the local engine reads every
      // app for it: a few hundred at most, see docs/services/gateway-auth.md, "Storage").
      { key: { createdAt: 1 }, name: 'created' },
    ],
  };

  private readonly apps: Collection<AppDoc>;

  constructor(db: Db) {
    this.apps = db.collection(AppsRepository.storage.collection);
  }

  /** Creates the app; a taken slug throws the duplicate-key error (see isDuplicateKeyError). */
  async insert(app: AppDoc): Promise<void> {
    await this.apps.insertOne(app);
  }

  async findById(appId: string): Promise<AppDoc | undefined> {
    return (await this.apps.findOne({ _id: appId })) ?? undefined;
  }

  async findBySlug(slug: string): Promise<AppDoc | undefined> {
    return (await this.apps.findOne({ slug })) ?? undefined;
  }

  /** The apps with these ids, oldest first (unknown ids are left out). */
  async findByIds(appIds: readonly string[]): Promise<AppDoc[]> {
    if (appIds.length === 0) return [];
    return this.apps
      .find({ _id: { $in: [...appIds] } })
      .sort({ createdAt: 1 })
      .toArray();
  }

  /** Every app, oldest first, capped: the administrators' list. */
  async listAll(limit: number): Promise<AppDoc[]> {
    return this.apps.find({}).sort({ createdAt: 1 }).limit(limit).toArray();
  }
}
