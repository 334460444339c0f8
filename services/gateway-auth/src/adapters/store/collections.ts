import type { Collection, Db } from 'mongodb';
import type { IndexPlan } from '@marketplace/store';
import type { ApiKeyDoc, AppDoc, ContractVersionDoc, IdempotencyRecordDoc, InstallationDoc, OAuthStateDoc, TenantDoc } from './documents';

export interface GatewayCollections {
  tenants: Collection<TenantDoc>;
  apps: Collection<AppDoc>;
  contractVersions: Collection<ContractVersionDoc>;
  installations: Collection<InstallationDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  oauthStates: Collection<OAuthStateDoc>;
  idempotencyRecords: Collection<IdempotencyRecordDoc>;
}

export function gatewayCollections(db: Db): GatewayCollections {
  return {
    tenants: db.collection('tenants'),
    apps: db.collection('apps'),
    contractVersions: db.collection('contract_versions'),
    installations: db.collection('installations'),
    apiKeys: db.collection('api_keys'),
    oauthStates: db.collection('oauth_states'),
    idempotencyRecords: db.collection('idempotency_records'),
  };
}

export const gatewayIndexes: IndexPlan = {
  tenants: [{ key: { slug: 1 }, name: 'slug_unique', unique: true }],
  apps: [{ key: { slug: 1 }, name: 'slug_unique', unique: true }],
  contract_versions: [{ key: { appId: 1, version: 1 }, name: 'app_version' }],
  installations: [
    { key: { tenantId: 1, installedAt: 1 }, name: 'tenant_installed' },
    // One live installation of an app per tenant: exact under concurrency (an insert), and kept in
    // the same document as the installation, so no crash can leave the two out of step.
    { key: { tenantId: 1, appId: 1, slot: 1 }, name: 'one_live_per_app', unique: true },
  ],
  api_keys: [{ key: { installationId: 1, status: 1 }, name: 'installation_status' }],
  // No TTL indexes (FerretDB has none): expired states and records are pruned by the service.
  oauth_states: [{ key: { expiresAt: 1 }, name: 'expires' }],
  idempotency_records: [{ key: { expiresAt: 1 }, name: 'expires' }],
};
