import type { Declaration, Exchange } from '../model';
import type { CallbackReceiver } from '../receiver/callback-receiver';
import type { TrackedDelivery } from '../test-api';

/** What every test of one run shares: the provider's settings, the receiver, and what the run recorded. */
export interface RunState {
  declaration: Declaration;
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  receiver: CallbackReceiver;
  /** Every exchange of the run, in order. */
  exchanges: Exchange[];
  /** Every delivery created through createDelivery. */
  deliveries: TrackedDelivery[];
}
