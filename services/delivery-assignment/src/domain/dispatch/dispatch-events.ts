import {
  CONNECTION_CAPABILITIES,
  TOPICS,
  type DispatchDecision,
  type ProviderConnectionChanged,
} from '@marketplace/contracts';
import { capabilityEnabled, dispatchIneligibility, type ProviderConnection } from './connection';
import type { ProviderDispatch } from './dispatch';

/** An event to stage in a document's outbox (the shape @marketplace/events publishes), spelled out for the domain. */
export interface OutgoingDispatchEvent {
  topic: typeof TOPICS.dispatchDecisions;
  key: string;
  type: 'dispatch.decided';
  data: DispatchDecision;
}

export interface OutgoingConnectionEvent {
  topic: typeof TOPICS.providerConnections;
  key: string;
  type: 'connection.changed';
  data: ProviderConnectionChanged;
}

/**
 * The dispatch-decisions of a change of a dispatch: one per line its log gained (the same lines
 * the tenant's dispatch log shows), in the same write (outbox).
 */
export function decisionEvents(before: ProviderDispatch | undefined, after: ProviderDispatch): OutgoingDispatchEvent[] {
  const known = new Set((before?.log ?? []).map((l) => `${l.at.getTime()}|${l.decision}|${l.reason}`));
  return after.log
    .filter((l) => !known.has(`${l.at.getTime()}|${l.decision}|${l.reason}`))
    .map((l) => ({
      topic: TOPICS.dispatchDecisions,
      key: after.orderId,
      type: 'dispatch.decided',
      data: {
        tenantId: after.tenantId,
        orderId: after.orderId,
        assignmentId: after._id,
        installationId: after.installationId,
        connectionId: after.connectionId,
        decision: l.decision === 'skipped' || l.decision === 'rescued' ? 'chosen' : l.decision,
        reason: l.reason.slice(0, 500),
        providerStatus: after.provider?.status ?? null,
        decidedAt: l.at.toISOString(),
      },
    }));
}

/** The connection as it is after a change (provider-connections topic): never a secret. */
export function connectionChanged(connection: ProviderConnection): OutgoingConnectionEvent {
  return {
    topic: TOPICS.providerConnections,
    key: connection._id,
    type: 'connection.changed',
    data: {
      connectionId: connection._id,
      tenantId: connection.tenantId,
      name: connection.name,
      baseUrl: connection.baseUrl,
      contract: connection.contract,
      capabilities: CONNECTION_CAPABILITIES.filter((c) => capabilityEnabled(connection, c)),
      dispatchable: dispatchIneligibility(connection) === undefined,
      version: connection.version,
      changedAt: connection.updatedAt.toISOString(),
    },
  };
}
