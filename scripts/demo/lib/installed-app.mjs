// One demo app, installed and connected for the demo tenant: the app (found by slug or created),
// a published contract version with the wanted contract (reused, or created and published), the
// tenant's installation on exactly that version, and fresh credentials (connect or reconnect).
import { HttpError, SeedError } from './api.mjs';

const ADMIN = '/api/admin/v1';
const TENANT = '/api/tenant/v1';

/** Finds the app by slug or creates it; a concurrent creation (409) is found again. */
async function ensureApp(admin, { slug, name, description }) {
  const path = `${ADMIN}/apps?slug=${encodeURIComponent(slug)}`;
  // Matched here too: the list is the whole list when the gateway ignores the filter.
  const find = async () => (await admin.call('GET', path)).find((a) => a.slug === slug);
  const found = await find();
  if (found) return { app: found, created: false };
  const res = await admin.request('POST', `${ADMIN}/apps`, { slug, name, description: description ?? null });
  if (res.status === 201) return { app: res.body, created: true };
  if (res.status === 409 && res.body?.code === 'marketplace.app.slug_taken') {
    const again = await find();
    if (again) return { app: again, created: false };
  }
  throw new HttpError('POST', `${ADMIN}/apps`, res.status, res.body);
}

const sameSet = (a = [], b = []) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const sameUrl = (a, b) => {
  if (a === b) return true;
  if (!a || !b) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

/** Whether a contract version (as the API shows it) grants exactly the wanted contract. */
export function contractMatches(version, wanted) {
  return (
    version.authType === wanted.authType &&
    sameSet(version.scopes, wanted.scopes) &&
    sameSet(version.subscribedEvents, wanted.subscribedEvents) &&
    sameUrl(version.webhookUrl, wanted.webhookUrl) &&
    !version.oauth2
  );
}

/**
 * The app's latest published version when its contract is the wanted one; else a new version,
 * published (a Draft newer than it with the same contract, left by an interrupted run, is published
 * instead of adding another).
 */
async function ensurePublishedVersion(admin, appId, wanted) {
  const detail = await admin.call('GET', `${ADMIN}/apps/${appId}`);
  const versions = [...(detail.versions ?? [])].sort((a, b) => a.version - b.version);
  const published = versions.filter((v) => v.status === 'Published');
  const latest = published.at(-1);
  if (latest && contractMatches(latest, wanted)) return { version: latest.version, outcome: 'reused' };
  const draft = versions.find(
    (v) => v.status === 'Draft' && v.version > (latest?.version ?? 0) && contractMatches(v, wanted),
  );
  const version = draft ?? (await admin.call('POST', `${ADMIN}/apps/${appId}/versions`, wanted, [201]));
  const result = await admin.call(
    'POST',
    `${ADMIN}/apps/${appId}/versions/${version.version}/publish`,
    undefined,
    [200],
  );
  if (result.status !== 'Published')
    throw new SeedError(`publishing ${detail.slug} version ${version.version} left it ${result.status}`);
  return { version: version.version, outcome: draft ? 'published draft' : 'created' };
}

/** The tenant's live installation of the app on exactly `version` (moving it there if needed). */
async function ensureInstallation(tenant, appId, version) {
  const list = () => tenant.call('GET', `${TENANT}/installations`);
  let current = (await list()).find((i) => i.appId === appId);
  let outcome = 'existing';
  if (current && current.contractVersion !== version) {
    // A consent is to one exact version: move by uninstalling (revokes its credentials) and installing again.
    await tenant.call('DELETE', `${TENANT}/installations/${current.id}`, undefined, [204, 404]);
    current = undefined;
    outcome = 'moved';
  }
  if (!current) {
    const res = await tenant.request('POST', `${TENANT}/installations`, { appId, contractVersion: version });
    if (res.status === 201) return { installation: res.body, outcome: outcome === 'moved' ? 'moved' : 'installed' };
    if (res.status === 409 && res.body?.code === 'marketplace.installation.exists') {
      current = (await list()).find((i) => i.appId === appId);
      if (current?.contractVersion === version) return { installation: current, outcome: 'existing' };
    }
    throw new HttpError('POST', `${TENANT}/installations`, res.status, res.body);
  }
  return { installation: current, outcome };
}

/** Fresh credentials: connect the first time, reconnect later (the previous ones are revoked). */
async function connect(tenant, installation) {
  const base = `${TENANT}/installations/${installation.id}`;
  const again = installation.status === 'Connected' || installation.status === 'Disconnected';
  let res = await tenant.request('POST', `${base}/${again ? 'reconnect' : 'connect'}`);
  if (!again && res.status === 409 && res.body?.code === 'marketplace.installation.already_connected') {
    res = await tenant.request('POST', `${base}/reconnect`); // connected meanwhile
  }
  if (res.status !== 200)
    throw new HttpError('POST', `${base}/${again ? 'reconnect' : 'connect'}`, res.status, res.body);
  const credentials = res.body?.credentials;
  if (!credentials?.apiKey)
    throw new SeedError(`POST ${base}/connect answered no API key (is the contract's authType ApiKey?)`);
  return { credentials, outcome: again ? 'reconnected' : 'connected' };
}

/**
 * Runs the whole chain for one app. `spec`: { slug, name, description?, contract: { authType,
 * scopes, subscribedEvents, webhookUrl } }. Answers the fixture entry of the installation.
 */
export async function ensureConnectedApp(ctx, spec) {
  const wanted = {
    authType: spec.contract.authType,
    scopes: spec.contract.scopes,
    subscribedEvents: spec.contract.subscribedEvents,
    webhookUrl: spec.contract.webhookUrl,
    oauth2: null,
  };
  const { app, created } = await ensureApp(ctx.admin, spec);
  const version = await ensurePublishedVersion(ctx.admin, app.id, wanted);
  const installed = await ensureInstallation(ctx.tenant, app.id, version.version);
  const connected = await connect(ctx.tenant, installed.installation);
  const apiKeyId = connected.credentials.apiKey.split('.')[0];
  ctx.report(
    `${spec.slug}: app ${app.id}${created ? ' (created)' : ''}, contract version ${version.version} (${version.outcome}), ` +
      `installation ${installed.installation.id} (${installed.outcome}, ${connected.outcome}), key id ${apiKeyId}`,
  );
  return {
    installationId: installed.installation.id,
    appId: app.id,
    appSlug: spec.slug,
    contractVersion: version.version,
    apiKeyId,
    apiKey: connected.credentials.apiKey,
    webhookSecret: connected.credentials.webhookSigningSecret,
  };
}
