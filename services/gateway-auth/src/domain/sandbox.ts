import type { SandboxScenarioName } from '@marketplace/contracts';

/**
 * The sandbox's scripted scenarios (ours: an extension of Partner API v1): a sandbox tenant's
 * installation asks, and the sandbox does what the restaurant would, through the same services
 * and events as in production. Each row: what it needs, what it does, and exactly which webhooks
 * it makes, to whom (docs/api/partner.openapi.json's extension section shows this table).
 */
export interface SandboxScenario {
  needs: ReadonlyArray<'orderId' | 'installationId' | 'times'>;
  does: string;
  /** The webhooks it makes: type and receiver. */
  emits: ReadonlyArray<{ type: string; to: 'caller' | 'source' | 'assignee' | 'installationId' }>;
}

export const SANDBOX: Record<SandboxScenarioName, SandboxScenario> = {
  'order.accept': {
    needs: ['orderId'],
    does: 'the restaurant accepts the order (status Accepted: read it with GET /orders/{orderId})',
    emits: [],
  },
  'order.reject': {
    needs: ['orderId'],
    does: 'the restaurant rejects the order (status Rejected); a live delivery assignment is terminated',
    emits: [{ type: 'delivery.cancelled', to: 'assignee' }],
  },
  'order.cancel': {
    needs: ['orderId'],
    does: 'the restaurant cancels the order (status Cancelled); a live delivery assignment is terminated',
    emits: [
      { type: 'orders.cancelled', to: 'source' },
      { type: 'delivery.cancelled', to: 'assignee' },
    ],
  },
  'delivery.assign': {
    needs: ['orderId'],
    does: "the restaurant assigns the order's delivery to the calling installation",
    emits: [{ type: 'delivery.assigned', to: 'caller' }],
  },
  'delivery.reassign': {
    needs: ['orderId', 'installationId'],
    does: 'the restaurant reassigns the delivery the caller holds (still Assigned) to `installationId`',
    emits: [
      { type: 'delivery.superseded', to: 'caller' },
      { type: 'delivery.assigned', to: 'installationId' },
    ],
  },
  'webhook.fail': {
    needs: ['times'],
    does:
      "the caller's next `times` webhook attempts fail (the sandbox answers them 503, nothing is sent): retries follow " +
      'the retry schedule and show in the delivery log, where a redelivery can be asked for',
    emits: [],
  },
  'secret.rotate': {
    needs: [],
    does:
      'the webhook signing secret is rotated: the new one is in the answer; for 24 hours both sign (`webhook-signature` ' +
      'carries two signatures)',
    emits: [],
  },
};
