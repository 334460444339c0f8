import type { DeclaredRoute } from './route-table';

/**
 * The orchestrator's probes every service answers (declared by the shared HTTP app, `app.ts`):
 * health, readiness and metrics, without credentials. One list, so that a service's printed route
 * table and the app's own declarations cannot differ.
 */
export const PROBE_ROUTES: readonly DeclaredRoute[] = Object.freeze([
  { method: 'GET', path: '/healthz', audience: 'probe' },
  { method: 'GET', path: '/readyz', audience: 'probe' },
  { method: 'GET', path: '/metrics', audience: 'probe' },
] as const satisfies readonly DeclaredRoute[]);
