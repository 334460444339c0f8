export { runService } from './process';
export {
  startService,
  readConfig,
  type ServiceDefinition,
  type ServiceContext,
  type ServiceParts,
  type RunningService,
} from './service';
export { platformSettings, type PlatformConfig } from './platform-config';
export { defineConsumer, type ConsumerSpec } from './dependencies';
