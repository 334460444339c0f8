import type { Collection, Db } from 'mongodb';
import type { RepositoryStorage } from '@marketplace/store';
import { contractVersionId } from '../../domain/ids';
import type { ContractVersionDoc } from './documents';

/** The fields of a contract version an administrator sets (and may change while it is a draft). */
export type ContractFields = Pick<
  ContractVersionDoc,
  'authType' | 'scopes' | 'subscribedEvents' | 'webhookUrl' | 'oauth2'
>;

/**
 * Contract versions of the apps, collection `contract_versions`. Like apps they belong to the
 * platform; each method takes the app it works on (part of the `_id`) instead of an owner.
 */
export class ContractVersionsRepository {
  static readonly storage: RepositoryStorage = {
    collection: 'contract_versions',
    indexes: [
      // The unique `_id` (implicit, `<appId>:<version>`) serves insert (the number's claim),
      // findVersion, findPublishedVersion, updateDraft and publishDraft.
      // findLatestForApp and listForApp: one app's versions, by number.
      { key: { appId: 1, version: 1 }, name: 'app_version' },
      // listPublished: the published versions only, in the order tenants see them.
      { key: { status: 1, appId: 1, version: 1 }, name: 'status_app_version' },
    ],
  };

  private readonly versions: Collection<ContractVersionDoc>;

  constructor(db: Db) {
    this.versions = db.collection(ContractVersionsRepository.storage.collection);
  }

  /** Claims the version's number: a number taken already throws the duplicate-key error. */
  async insert(version: ContractVersionDoc): Promise<void> {
    await this.versions.insertOne(version);
  }

  /** The app's highest-numbered version. */
  async findLatestForApp(appId: string): Promise<ContractVersionDoc | undefined> {
    return (await this.versions.find({ appId }).sort({ version: -1 }).limit(1).next()) ?? undefined;
  }

  /** Every version of the app, by number. */
  async listForApp(appId: string): Promise<ContractVersionDoc[]> {
    return this.versions.find({ appId }).sort({ version: 1 }).toArray();
  }

  async findVersion(appId: string, version: number): Promise<ContractVersionDoc | undefined> {
    return (await this.versions.findOne({ _id: contractVersionId(appId, version) })) ?? undefined;
  }

  async findPublishedVersion(appId: string, version: number): Promise<ContractVersionDoc | undefined> {
    return (await this.versions.findOne({ _id: contractVersionId(appId, version), status: 'Published' })) ?? undefined;
  }

  /** Every published version of every app (what tenants browse), by app and number. */
  async listPublished(): Promise<ContractVersionDoc[]> {
    return this.versions.find({ status: 'Published' }).sort({ appId: 1, version: 1 }).toArray();
  }

  /** Changes a version while it is a draft; undefined when it is published (or unknown). */
  async updateDraft(
    appId: string,
    version: number,
    fields: ContractFields,
    updatedAt: Date,
  ): Promise<ContractVersionDoc | undefined> {
    const updated = await this.versions.findOneAndUpdate(
      { _id: contractVersionId(appId, version), status: 'Draft' },
      { $set: { ...fields, updatedAt } },
      { returnDocument: 'after' },
    );
    return updated ?? undefined;
  }

  /** Publishes a draft; undefined when it was published already (or is unknown). */
  async publishDraft(appId: string, version: number, publishedAt: Date): Promise<ContractVersionDoc | undefined> {
    const updated = await this.versions.findOneAndUpdate(
      { _id: contractVersionId(appId, version), status: 'Draft' },
      { $set: { status: 'Published', publishedAt, updatedAt: publishedAt } },
      { returnDocument: 'after' },
    );
    return updated ?? undefined;
  }
}
