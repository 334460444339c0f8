export {
  connectMongo,
  ensureIndexes,
  isDuplicateKeyError,
  type MongoSettings,
  type MongoStore,
  type IndexPlan,
} from './mongo';
export { processedEvents, pruneProcessedEvents, PROCESSED_EVENTS, PROCESSED_EVENTS_INDEXES } from './processed-events';
export { DocumentLock, type DocumentLockOptions, type LockDoc } from './document-lock';
export { indexPlanOf, type InstallationOwner, type RepositoryStorage, type TenantOwner } from './repository';
