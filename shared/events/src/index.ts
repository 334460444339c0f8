export { createKafka, dropKafkajsNegativeTimeoutWarning, type KafkaSettings } from './kafka';
export {
  checkKafkaTls,
  describeKafkaConnection,
  KAFKA_SASL_MECHANISMS,
  KAFKA_SECURITY_PROTOCOLS,
  kafkaConnectionFromEnv,
  kafkaConnectionOf,
  kafkaConnectionProblems,
  kafkaConnectionSettings,
  kafkajsSecurity,
  type KafkaConnection,
  type KafkaSaslMechanism,
} from './connection';
export {
  consumerGroupConfig,
  DEFAULT_GROUP_TIMINGS,
  groupTimingProblems,
  withGroupTimings,
  type GroupTimings,
} from './group-timings';
export { loadTopicCatalog, createTopicCatalog, defaultSchemasDir, type TopicCatalog, type TopicSpec } from './catalog';
export { type AnyTopics, type PlatformTopics, type TopicContract, type TopicMap, type TopicOf } from './topics';
export { SchemaValidator, createAjv } from './validation';
export { EventSchemas } from './registry';
export {
  registryAuthorization,
  registryConnectionFromEnv,
  registryConnectionOf,
  registryConnectionProblems,
  registryConnectionSettings,
  type RegistryConnection,
} from './registry-connection';
export { EventDecoder } from './decoder';
export { EventPublisher, type OutgoingEvent, type PublishedEvent, type StoredEvent } from './producer';
export {
  EventConsumer,
  subscribeWhenReady,
  type ConsumedEvent,
  type ConsumerOptions,
  type ConsumeOutcome,
  type EventHandler,
  type EventOf,
  type ProcessedEvents,
} from './consumer';
export { ensureTopics, KafkaPing } from './admin';
export { HoldWatch, holdCauseOf, type Hold, type HoldKey, type HoldWatchOptions } from './holds';
export {
  HEADER,
  DLT_HEADER,
  headerText,
  injectTraceContext,
  extractTraceContext,
  messageTraceContext,
  storedTraceContext,
  inConsumerSpan,
} from './headers';
export {
  partitionsBehind,
  describeBehind,
  type PartitionBehind,
  type PartitionEnds,
  type CommittedOffset,
  type OffsetAtTime,
} from './catch-up';
export { CopyProgress, waitForCopies } from './copy-progress';
export { asyncApiDocument } from './asyncapi';
