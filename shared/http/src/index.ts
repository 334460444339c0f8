export {
  createHttpApp,
  requestBody,
  rawRequestBody,
  JSON_MEDIA_TYPES,
  type HttpApp,
  type HttpAppOptions,
  type AppContext,
  type RequestState,
} from './app';
export {
  formatError,
  toAppError,
  statusOf,
  HttpLayerError,
  type ErrorFormat,
  type ErrorResponse,
} from './error-format';
export { createMetrics, type Metrics } from './metrics';
export { runReadinessChecks, withTimeout, type ReadinessCheck, type ReadinessReport } from './readiness';
export { bodyValidator, fieldErrorsOf, fieldPath } from './body-validation';
export { isUuid, pathId, queryId } from './path-params';
export { isLoopbackHost, isInternalAddress } from './outbound-address';
export { outboundUrlProblem, type OutboundUrlRules } from './outbound-url';
export { SafeHttpClient, type SafeHttpOptions, type SafePostResult, type NetworkErrorClass } from './safe-http';
