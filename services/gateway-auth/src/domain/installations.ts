import type { Installation } from './entities';

/** The slot of an installed installation (see Installation.slot). */
export const LIVE_SLOT = 'live';

/** The installation as the owner of its keys and states. */
export const ownerOf = (installation: Installation): { tenantId: string; installationId: string } => ({
  tenantId: installation.tenantId,
  installationId: installation._id,
});

/** The next revision of an installation's events (under the installation lock). */
export const nextRevision = (installation: Installation) => (installation.eventRevision ?? 0) + 1;
