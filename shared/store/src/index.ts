export { connectMongo, ensureIndexes, isDuplicateKeyError, type MongoSettings, type MongoStore, type IndexPlan } from './mongo';
export { processedEvents, PROCESSED_EVENTS } from './processed-events';
