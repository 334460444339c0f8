export {
  createHttpApp,
  requestBody,
  rawRequestBody,
  JSON_MEDIA_TYPES,
  type HttpApp,
  type HttpAppOptions,
  type AppContext,
  type RequestState,
  answerClientError,
  RouteDeclarationError,
} from './app';
export {
  RouteTable,
  AUDIENCES,
  type Audience,
  type GuardedAudience,
  type DeclaredRoute,
  type RouteMiddleware,
  routeLine,
} from './route-table';
export { nonCanonicalPath } from './canonical-path';
export { PROBE_ROUTES } from './probe-routes';
export {
  formatError,
  toAppError,
  statusOf,
  HttpLayerError,
  PROBLEM_TYPE_PATH,
  problemTypeUri,
  statusTitle,
  type ErrorFormat,
  type ErrorResponse,
} from './error-format';
export { createMetrics, type Metrics } from './metrics';
export { runReadinessChecks, withTimeout, type ReadinessCheck, type ReadinessReport } from './readiness';
export { bodyValidator, fieldErrorsOf, fieldPath, projectOntoSchema } from './body-validation';
export { isUuid, pathId, queryId } from './path-params';
export { isLoopbackHost, isInternalAddress } from './outbound-address';
export { outboundUrlProblem, type OutboundUrlRules } from './outbound-url';
export { SafeHttpClient, type SafeHttpOptions, type SafePostResult, type NetworkErrorClass } from './safe-http';
export { canonicalJson, requestFingerprint } from './request-fingerprint';
