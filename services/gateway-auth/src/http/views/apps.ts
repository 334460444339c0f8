import type { AppDetail } from '../../usecases/apps/get-app-detail';
import type { PublishedApp } from '../../usecases/apps/list-published-apps';
import type { App, ContractVersion } from '../../domain/entities';

export const appView = (a: App) => ({
  id: a._id,
  slug: a.slug,
  name: a.name,
  description: a.description,
  createdAt: a.createdAt.toISOString(),
});

/** An app with all its contract versions (administrator API). */
export const appDetailView = (d: AppDetail) => ({ ...appView(d.app), versions: d.versions.map(contractVersionView) });

/** A contract version as the administrator API shows it (the OAuth client secret only as `clientSecretSet`). */
export function contractVersionView(v: ContractVersion) {
  return {
    appId: v.appId,
    version: v.version,
    status: v.status,
    authType: v.authType,
    scopes: v.scopes,
    subscribedEvents: v.subscribedEvents,
    webhookUrl: v.webhookUrl,
    oauth2: v.oauth2 && {
      authorizationEndpoint: v.oauth2.authorizationEndpoint,
      tokenEndpoint: v.oauth2.tokenEndpoint,
      clientId: v.oauth2.clientId,
      scopes: v.oauth2.scopes,
      tokenEndpointAuthMethod: v.oauth2.tokenEndpointAuthMethod,
      clientSecretSet: true,
    },
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
    publishedAt: v.publishedAt?.toISOString() ?? null,
  };
}

export const publishedVersionSummary = (v: ContractVersion) => ({
  version: v.version,
  authType: v.authType,
  scopes: v.scopes,
  subscribedEvents: v.subscribedEvents,
  webhookUrl: v.webhookUrl,
  publishedAt: v.publishedAt?.toISOString() ?? null,
});

/** What tenants browse: a published app with its published versions. */
export const publishedAppView = ({ app, versions }: PublishedApp) => ({
  id: app._id,
  slug: app.slug,
  name: app.name,
  description: app.description,
  versions: versions.map(publishedVersionSummary),
});
