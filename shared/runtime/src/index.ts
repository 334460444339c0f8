export { runService } from './process';
export { printRoutesAndExit, routesRequested, ROUTES_FLAG } from './route-listing';
export {
  startService,
  readConfig,
  type ServiceDefinition,
  type ServiceContext,
  type ServiceParts,
  type RunningService,
} from './service';
export { groupTimingsOf, platformSettings, type PlatformConfig } from './platform-config';
export { defineConsumer, type ConsumerSpec } from './dependencies';
