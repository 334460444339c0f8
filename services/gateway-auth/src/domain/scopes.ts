/** The Partner API's vocabulary lives with the contracts, which the request schemas build on. */
export {
  SCOPES,
  SUBSCRIBABLE_EVENTS,
  AUTH_TYPES,
  type Scope,
  type AuthType,
  type SubscribableEvent as EventType,
} from '@marketplace/contracts';
