export { localEnv, stackEnv, repoRoot } from './stack';
export {
  CONTAINER_IMAGES,
  containerPlan,
  NATIVE_ONLY,
  stackAddressesOf,
  testInfra,
  TEST_INFRA_VARIABLE,
  TEST_INFRAS,
  type ContainerAddresses,
  type ContainerSpec,
  type StackAddresses,
  type TestInfra,
} from './infra';
export { uniqueName, waitFor, sleep } from './wait';
export { captureLogger, quietLogger } from './loggers';
export {
  freePort,
  startServiceProcess,
  startServiceProcesses,
  SERVICE_LOG_DIR,
  type ServiceProcess,
} from './service-process';
export { testCatalog, testEventSchema, testEvents } from './event-fixtures';
export { readTopic, type RawTopicReader } from './raw-topic';
export { findSecrets, SECRET_PATTERNS } from './secret-patterns';
export {
  ISSUED_SECRETS_DIR,
  MIN_SECRET_LENGTH,
  readIssuedSecrets,
  recordIssuedSecret,
  recordSecretsIn,
  type IssuedSecret,
} from './issued-secrets';
export {
  auditableFiles,
  auditSecrets,
  describeFinding,
  ERROR_BODIES_DIR,
  expectNoSecrets,
  findIssuedSecrets,
  recordErrorBody,
  scanForSecrets,
  type SecretFinding,
} from './secret-audit';
export { validateOpenApi, componentValidator, tenantDocumentOperationIds } from './openapi';
export {
  codesOnNoOperation,
  documentOperations,
  errorTableOf,
  followRef,
  headersSetIn,
  operationErrorCodes,
  responseCodeProblems,
  responseErrorCodes,
  retryAfterHeaderName,
  retryAfterProblems,
  scanErrorCodes,
  sourceWithoutComments,
  statusesByCode,
  type DocumentedOperation,
  type ErrorCodeScan,
  type ErrorCodeSite,
} from './error-codes';
export {
  startReceiver,
  verifyPlatformSignature,
  verifySignature,
  type Received,
  type Receiver,
  type ReceiverAnswer,
} from './receiver';
export {
  describeTimings,
  fillTo,
  growsWithData,
  methodOfCase,
  queryMethodsOf,
  timeLookups,
  GROWTH_SIZES,
  type LookupCase,
  type LookupTiming,
} from './index-growth';
export { signTestBearerToken, type TestBearerClaims } from './bearer-token';
export {
  adminToken,
  apiClient,
  connectedApp,
  createTenant,
  partnerCall,
  publishApp,
  startGateway,
  type ApiClient,
  type ConnectedApp,
  type TestGateway,
} from './gateway';
export {
  pickupOrder,
  restaurantMenu,
  seedMenu,
  selectionId,
  waitForCatalogCopy,
  type DemoMenu,
  type TenantCall,
} from './menu-fixture';
export {
  ALL_PLATFORM_CAPABILITIES,
  PLATFORM_SERVICE_AREA,
  platformAccountSettings,
  platformDeliveryRequest,
  providerAdminToken,
} from './provider-platform';
export { launchChromium, CHROMIUM_BINARY, CHROMIUM_LAUNCH_BUDGET_MS, type ChromiumLauncher } from './browser';
export {
  paymentSucceeded,
  postProcessorNotification,
  processorSignatureOf,
  type ProcessorNotificationOptions,
} from './payment-processor';
