import Router, { type RouterMiddleware } from '@koa/router';
import type { Logger } from '@marketplace/logging';

/** What handlers find on `ctx.state`. */
export interface RequestState {
  requestId: string;
  log: Logger;
}

/**
 * Who may call a route, in one vocabulary for every service. Each route names its audience where it
 * is declared; the service supplies the check for each audience it serves (an API key at the
 * gateway, the gateway's signed identity behind it, an administrator's token, ...), and the check
 * runs as that route's own first middleware, never by matching a path prefix elsewhere.
 *
 * - `public`: anyone, no credentials (API documents, the docs pages, the OAuth redirect, a tracking page).
 * - `probe`: the orchestrator's health, readiness and metrics probes (no credentials; kept off the
 *   public ingress by the chart).
 * - `partner`: a partner app's installation (an API key at the gateway; its signed identity behind it).
 * - `tenant`: a restaurant (a tenant token at the gateway; its signed identity behind it).
 * - `admin`: the platform's administrators (an administrator token of the service's own key).
 * - `platform`: a platform calling the delivery-provider contract (a platform account's API key).
 * - `courier`: a driver of provider-delivery (a courier token).
 * - `processor`: a tenant's payment processor notifying a confirmed payment (an HMAC signature over
 *   the body with the tenant's processor secret at the gateway; its signed identity behind it).
 */
export const AUDIENCES = ['public', 'probe', 'partner', 'tenant', 'admin', 'platform', 'courier', 'processor'] as const;
export type Audience = (typeof AUDIENCES)[number];
/**
 * The audiences a service supplies a guard for: each that presents credentials must have one; the
 * `public` guard is optional (a per-IP limit, say); probes have none.
 */
export type GuardedAudience = Exclude<Audience, 'probe'>;

export type RouteMiddleware = RouterMiddleware<RequestState>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One line of a service's route table: the review surface of who may call what. */
export interface DeclaredRoute {
  method: Method;
  path: string;
  audience: Audience;
}

interface Declaration extends DeclaredRoute {
  handlers: RouteMiddleware[];
}

/** A route refused at start: no audience, an unknown one, or one the service has no check for. */
export class RouteDeclarationError extends Error {}

/**
 * A service's routes, each with its audience. Routers are case-sensitive and strict (a trailing
 * slash is another path): `/ADMIN/v1/…` or `/admin/v1//…` names no route and is a 404.
 * Declarations are collected, then `mount` checks them all and puts them on the Koa router: a
 * route without a known audience, or whose audience the service has no guard for, stops the start.
 */
export class RouteTable {
  private readonly declarations: Declaration[] = [];
  private readonly guards = new Map<GuardedAudience, RouteMiddleware[]>();
  private mounted = false;

  /**
   * @param beforeHandlers runs after the audience's guard and before the route's handlers (the
   *   JSON body reader: nothing of a request's body is read before its caller is known).
   */
  constructor(private readonly beforeHandlers: RouteMiddleware[] = []) {}

  get(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('GET', path, audience, handlers);
  }
  post(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('POST', path, audience, handlers);
  }
  put(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('PUT', path, audience, handlers);
  }
  patch(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('PATCH', path, audience, handlers);
  }
  delete(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('DELETE', path, audience, handlers);
  }
  /** For a proxy that lets its upstream answer OPTIONS (elsewhere the router answers it from the table). */
  options(path: string, audience: Audience, ...handlers: RouteMiddleware[]): this {
    return this.declare('OPTIONS', path, audience, handlers);
  }

  /**
   * The check of one audience for this service: middleware that lets an authenticated caller
   * through (and puts who it is on the request state) or throws 401/429 in the service's shape.
   */
  guard(audience: GuardedAudience, ...checks: RouteMiddleware[]): this {
    if (this.mounted) throw new RouteDeclarationError('guards are set before the routes are mounted');
    if (this.guards.has(audience)) throw new RouteDeclarationError(`the ${audience} guard is set twice`);
    if (checks.length === 0) throw new RouteDeclarationError(`the ${audience} guard has no check`);
    this.guards.set(audience, checks);
    return this;
  }

  /** Every declared route, in declaration order (the unit test of each service lists them). */
  routes(): DeclaredRoute[] {
    return this.declarations.map(({ method, path, audience }) => ({ method, path, audience }));
  }

  /** Checks every declaration and builds the Koa router; throws RouteDeclarationError on the first fault. */
  mount(): Router<RequestState> {
    const router = new Router<RequestState>({ sensitive: true, strict: true });
    for (const route of this.declarations) {
      const guard =
        route.audience === 'probe'
          ? []
          : (this.guards.get(route.audience) ?? (route.audience === 'public' ? [] : undefined));
      if (!guard)
        throw new RouteDeclarationError(
          `${route.method} ${route.path} is for ${route.audience} callers, and this service has no check for them`,
        );
      router.register(route.path, [route.method], [...guard, ...this.beforeHandlers, ...route.handlers]);
    }
    this.mounted = true;
    return router;
  }

  private declare(method: Method, path: string, audience: Audience, handlers: RouteMiddleware[]): this {
    if (this.mounted) throw new RouteDeclarationError(`${method} ${path} is declared after the routes were mounted`);
    if (!(AUDIENCES as readonly string[]).includes(audience))
      throw new RouteDeclarationError(`${method} ${path} declares no known audience (${String(audience)})`);
    if (!path.startsWith('/')) throw new RouteDeclarationError(`${method} ${path} is not an absolute path`);
    if (handlers.length === 0) throw new RouteDeclarationError(`${method} ${path} has no handler`);
    const duplicate = this.declarations.find((d) => d.method === method && d.path === path);
    if (duplicate) throw new RouteDeclarationError(`${method} ${path} is declared twice`);
    this.declarations.push({ method, path, audience, handlers });
    return this;
  }
}

/** One route as one aligned line, `audience method path`: how route tables are read and reviewed. */
export const routeLine = (route: DeclaredRoute): string =>
  `${route.audience.padEnd(8)} ${route.method.padEnd(6)} ${route.path}`;
