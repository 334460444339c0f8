export { stackEnv, repoRoot } from './stack';
export { uniqueName, waitFor, sleep } from './wait';
export { captureLogger, quietLogger } from './loggers';
export { startServiceProcess, type ServiceProcess } from './service-process';
export { testCatalog, testEventSchema, testEvents } from './event-fixtures';
export { readTopic, type RawTopicReader } from './raw-topic';
