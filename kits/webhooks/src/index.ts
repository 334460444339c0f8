export { readHeader, type HeaderSource } from './headers';
export {
  constructMarketplaceEvent,
  DEFAULT_TOLERANCE_SECONDS,
  signMarketplaceWebhook,
  verifyMarketplaceWebhook,
  type MarketplaceEvent,
  type MarketplaceVerifyOptions,
  type SignMarketplaceOptions,
} from './marketplace';
export { signStandardWebhook, standardWebhookKey, verifyStandardWebhook } from './standard';
export { signPlatformCallback, verifyPlatformCallback, type PlatformVerifyOptions } from './platform';
export { WebhookVerificationError, type RawBody, type VerifyFailure, type VerifyResult } from './result';
export { listen, type ListenIo } from './cli/listen';
export { listenSettings, type ListenSettings } from './cli/options';
