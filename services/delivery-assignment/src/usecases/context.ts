import type { Logger } from '@marketplace/logging';
import type { DeliveryStore } from '../adapters/store';
import type {
  AssignmentMetrics,
  CertificateCheck,
  ConnectionSecrets,
  DeliveryEvents,
  DispatchMetrics,
  DispatchWork,
  DropoffOpener,
  PlatformEvents,
  ProviderApi,
  RecentDeliveries,
} from './ports';

/** The platform's side of the provider contract: its ports and settings (service.ts wires them). */
export interface DispatchContext {
  providers: ProviderApi;
  secrets: ConnectionSecrets;
  certificates: CertificateCheck;
  openDropoff: DropoffOpener;
  metrics: DispatchMetrics;
  work: DispatchWork;
  /** Publishes what a dispatch's or a connection's write staged, right after it landed. */
  events: PlatformEvents;
  /** The base of every callback URL (`<base>/api/provider-callbacks/v1/<token>`); null: no callbacks, polling only. */
  callbackBaseUrl: string | null;
  /** A connection's base URL may be plain http on loopback (local setups). */
  allowLoopbackHttp: boolean;
  /** Convergence: a live delivery is read once its provider has been quiet this long. */
  quietMs: number;
}

/** What the use cases work with; service.ts wires the adapters in. */
export interface DeliveryContext {
  store: DeliveryStore;
  /** Publishes a delivery's events once its write landed. */
  events: DeliveryEvents;
  /** The deliveries this process wrote last: spares a read, never decides alone. */
  recent: RecentDeliveries;
  /**
   * Resolves once this service's copies (orders, installations, branches) hold everything
   * published before `time`; rejects with a 503 naming what is behind past the configured wait.
   */
  copiesCaughtUp(time: Date): Promise<void>;
  /** How long a partner action's answer is kept for a repeat of its Idempotency-Key. */
  partnerRequestRetentionMs: number;
  metrics: AssignmentMetrics;
  dispatch: DispatchContext;
  logger: Logger;
  now(): Date;
  newId(): string;
}
