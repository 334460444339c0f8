export { localEnv, stackEnv, repoRoot } from './stack';
export { uniqueName, waitFor, sleep } from './wait';
export { captureLogger, quietLogger } from './loggers';
export { freePort, startServiceProcess, type ServiceProcess } from './service-process';
export { testCatalog, testEventSchema, testEvents } from './event-fixtures';
export { readTopic, type RawTopicReader } from './raw-topic';
