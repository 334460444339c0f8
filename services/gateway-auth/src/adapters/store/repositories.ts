import type { Db } from 'mongodb';
import { indexPlanOf, type IndexPlan } from '@marketplace/store';
import { ApiKeysRepository } from './api-keys-repository';
import { AppsRepository } from './apps-repository';
import { AuditEventsRepository } from './audit-events-repository';
import { ContractVersionsRepository } from './contract-versions-repository';
import { IdempotencyRecordsRepository } from './idempotency-records-repository';
import { InstallationsRepository } from './installations-repository';
import { OAuthStatesRepository } from './oauth-states-repository';
import { TenantTokensRepository } from './tenant-tokens-repository';
import { TenantsRepository } from './tenants-repository';

/** Everything the gateway stores, one repository per collection: the only way use cases reach it. */
export interface GatewayRepositories {
  tenants: TenantsRepository;
  apps: AppsRepository;
  contractVersions: ContractVersionsRepository;
  installations: InstallationsRepository;
  apiKeys: ApiKeysRepository;
  oauthStates: OAuthStatesRepository;
  idempotencyRecords: IdempotencyRecordsRepository;
  tenantTokens: TenantTokensRepository;
  auditEvents: AuditEventsRepository;
}

export function gatewayRepositories(db: Db): GatewayRepositories {
  return {
    tenants: new TenantsRepository(db),
    apps: new AppsRepository(db),
    contractVersions: new ContractVersionsRepository(db),
    installations: new InstallationsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    oauthStates: new OAuthStatesRepository(db),
    idempotencyRecords: new IdempotencyRecordsRepository(db),
    tenantTokens: new TenantTokensRepository(db),
    auditEvents: new AuditEventsRepository(db),
  };
}

/** The indexes of every repository, created at start (each declared next to its queries). */
export const gatewayIndexes: IndexPlan = indexPlanOf(
  TenantsRepository.storage,
  AppsRepository.storage,
  ContractVersionsRepository.storage,
  InstallationsRepository.storage,
  ApiKeysRepository.storage,
  OAuthStatesRepository.storage,
  IdempotencyRecordsRepository.storage,
  TenantTokensRepository.storage,
  AuditEventsRepository.storage,
);
