import {
  CONNECTION_CAPABILITIES,
  type ConnectionCapabilityState,
  type DeliveryDispatch,
  type DispatchLogEntry,
  type DispatchRules,
  type ProviderConnection as ProviderConnectionView,
  type ProviderDispatch as ProviderDispatchView,
} from '@marketplace/contracts';
import {
  dispatchIneligibility,
  type ConnectionInstallation,
  type ProviderConnection,
} from '../../domain/dispatch/connection';
import type { DispatchRules as DispatchRulesDoc } from '../../domain/dispatch/plan';
import type { ProviderDispatch } from '../../domain/dispatch/dispatch';
import type { DispatchPlan } from '../../domain/dispatch/plan';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** A connection as its readers see it: never its API key, signing secret or any sealed value. */
export function connectionView(
  connection: ProviderConnection,
  installation: ConnectionInstallation | null,
): ProviderConnectionView {
  const capabilities = Object.fromEntries(
    CONNECTION_CAPABILITIES.map((capability): [string, ConnectionCapabilityState] => {
      const grant = connection.capabilities[capability];
      return [
        capability,
        grant?.enabled
          ? { enabled: true, by: grant.by, reason: grant.reason, at: grant.at.toISOString() }
          : { enabled: false, by: null, reason: grant?.reason ?? null, at: iso(grant?.at) },
      ];
    }),
  ) as ProviderConnectionView['capabilities'];
  return {
    connectionId: connection._id,
    installationId: installation?._id ?? null,
    name: connection.name,
    baseUrl: connection.baseUrl,
    offeredBy: connection.tenantId === null ? 'platform' : 'tenant',
    contract: connection.contract,
    preparationTimeMinutes: connection.preparationTimeMinutes,
    capabilities,
    dispatchable: dispatchIneligibility(connection) === undefined,
    createdAt: connection.createdAt.toISOString(),
  };
}

/** An order's dispatch to a connection: the provider's state as known, its age, and the log. */
export function dispatchView(
  dispatch: ProviderDispatch,
  connection: ProviderConnection | undefined,
  now: Date,
): ProviderDispatchView {
  const known = dispatch.lastHeardAt;
  const log: DispatchLogEntry[] = dispatch.log.map((entry) => ({
    at: entry.at.toISOString(),
    assignmentId: dispatch._id,
    installationId: dispatch.installationId,
    connectionId: dispatch.connectionId,
    connectionName: connection?.name ?? '(removed)',
    decision: entry.decision,
    reason: entry.reason,
  }));
  return {
    orderId: dispatch.orderId,
    assignmentId: dispatch._id,
    connectionId: dispatch.connectionId,
    providerDeliveryId: dispatch.providerDeliveryId,
    providerStatus: dispatch.provider?.status ?? null,
    providerEventTimeUtc: iso(dispatch.provider?.eventTime),
    lastHeardAtUtc: iso(known),
    stateAgeSeconds: known ? Math.max(0, (now.getTime() - known.getTime()) / 1000) : null,
    log,
  };
}

/** An order's dispatch: the rules' plan and each dispatch. */
export function deliveryDispatchView(
  orderId: string,
  read: {
    plan: DispatchPlan | null;
    dispatches: Array<{ dispatch: ProviderDispatch; connection: ProviderConnection | undefined }>;
    now: Date;
  },
): DeliveryDispatch {
  const plan = read.plan;
  return {
    orderId,
    plan: plan && {
      candidates: plan.candidates,
      tried: plan.tried,
      rescue: { enabled: plan.rescue.enabled, until: iso(plan.rescue.until) },
      log: plan.log.map((l) => ({ ...l, at: l.at.toISOString() })),
    },
    dispatches: read.dispatches.map(({ dispatch, connection }) => dispatchView(dispatch, connection, read.now)),
  };
}

export function dispatchRulesView(rules: DispatchRulesDoc | undefined): DispatchRules {
  return rules
    ? { connections: rules.connections, rescue: rules.rescue, updatedAt: rules.updatedAt.toISOString() }
    : { connections: [], rescue: { enabled: false, withinMinutes: 30 }, updatedAt: null };
}
