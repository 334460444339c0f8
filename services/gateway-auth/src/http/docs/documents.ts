import {
  providerApiDocument,
  providerCourierApiDocument,
  tenantCatalogApiDocument,
  tenantDeliveriesApiDocument,
  tenantOrderingApiDocument,
  tenantProviderConnectionsApiDocument,
  tenantWebhooksApiDocument,
} from '@marketplace/contracts';
import { marketplaceApiDocument } from '../openapi/marketplace-api';
import { partnerApiDocument } from '../openapi/partner-api';

/** Who a document is for: the sections of the /docs index, in this order. */
export const AUDIENCES = [
  {
    id: 'partners',
    title: 'Partners building an integration',
    intro: 'Order sources and delivery apps that a restaurant installs from the marketplace.',
  },
  {
    id: 'restaurants',
    title: 'Restaurants and administrators',
    intro: 'The dashboards of restaurants (tenants) and of the platform’s administrators.',
  },
  {
    id: 'providers',
    title: 'Delivery providers and platforms',
    intro: 'A delivery provider implements the contract; a platform dispatches deliveries through it.',
  },
  { id: 'drivers', title: 'Drivers’ apps', intro: 'The app a delivery provider’s drivers carry.' },
  {
    id: 'topics',
    title: 'Teams reading our Kafka topics',
    intro: 'Services inside the platform that consume its events.',
  },
] as const;

export type Audience = (typeof AUDIENCES)[number]['id'];

/**
 * Where a document's published URL is: on this gateway (public), behind the gateway's tenant
 * forwarding (a tenant token), or on provider-delivery (the provider's own service).
 */
export type PublishedOn = 'gateway' | 'tenant' | 'provider-delivery';

/**
 * Every document with a page at /docs/<name>. `published` is its URL where its owner serves it;
 * `docs/api/<name>.openapi.json` the exported file (exported-documents.ts); `summary` the index's
 * paragraph (markdown code spans only).
 */
export const DOCS = [
  {
    name: 'partner',
    title: 'Partner API',
    audience: 'partners',
    document: partnerApiDocument,
    published: '/api/partner/v1/openapi.json',
    publishedOn: 'gateway',
    tryItOut: false,
    summary:
      'For the backend of an app a restaurant installs: read its branches and catalog, create, read and cancel orders ' +
      '(order sources), accept, reject and move delivery assignments (delivery apps), and the signed webhooks we send ' +
      'you. Covers API keys and scopes, idempotency, rate limits, every error code and the webhook signatures.',
  },
  {
    name: 'marketplace',
    title: 'Marketplace administrator and tenant API',
    audience: 'restaurants',
    document: marketplaceApiDocument,
    published: '/api/marketplace/openapi.json',
    publishedOn: 'gateway',
    tryItOut: true,
    summary:
      'For administrators running the marketplace and for restaurants managing their apps: tenants and their tokens, ' +
      'apps and contract versions, installing and connecting an app (API key or OAuth2), rotating and revoking ' +
      'credentials, the payment processor’s settings and the audit log.',
  },
  // Published behind the tenant forwarding: a client needs a tenant token to fetch these.
  {
    name: 'tenant-catalog',
    title: 'Tenant API: catalog',
    audience: 'restaurants',
    document: tenantCatalogApiDocument,
    published: '/api/tenant/v1/catalog/openapi.json',
    publishedOn: 'tenant',
    tryItOut: true,
    summary:
      'For a restaurant’s dashboard: branches and their availability, categories, products, modifier groups and tax ' +
      'categories, the catalog that partners then read.',
  },
  {
    name: 'tenant-orders',
    title: 'Tenant API: orders, delivery zones, promotions, service fee',
    audience: 'restaurants',
    document: tenantOrderingApiDocument,
    published: '/api/tenant/v1/orders/openapi.json',
    publishedOn: 'tenant',
    tryItOut: true,
    summary:
      'For a restaurant’s dashboard: the orders of every source and their status changes, payments, delivery zones ' +
      'and fees, promotions and the service fee.',
  },
  {
    name: 'tenant-deliveries',
    title: 'Tenant API: delivery assignments',
    audience: 'restaurants',
    document: tenantDeliveriesApiDocument,
    published: '/api/tenant/v1/deliveries/openapi.json',
    publishedOn: 'tenant',
    tryItOut: true,
    summary:
      'For a restaurant’s dashboard: give an order’s delivery to an installed delivery app, reassign it, and follow ' +
      'the assignment until it is delivered.',
  },
  {
    name: 'tenant-provider-connections',
    title: 'Tenant and administrator API: provider connections and dispatch',
    audience: 'restaurants',
    document: tenantProviderConnectionsApiDocument,
    published: '/api/tenant/v1/provider-connections/openapi.json',
    publishedOn: 'tenant',
    tryItOut: true,
    summary:
      'For a restaurant, and administrators offering providers to every restaurant: connect a delivery provider that ' +
      'implements the Standard Delivery Provider Contract, enable its capabilities with a conformance certificate, ' +
      'assign deliveries to it and follow each dispatch (the provider’s state, its age, the log); and the callback ' +
      'route providers send their events to.',
  },
  {
    name: 'tenant-webhooks',
    title: 'Tenant API: webhook deliveries',
    audience: 'restaurants',
    document: tenantWebhooksApiDocument,
    published: '/api/tenant/v1/webhooks/openapi.json',
    publishedOn: 'tenant',
    tryItOut: true,
    summary:
      'For a restaurant’s dashboard: the webhooks sent to its installed apps with each attempt, and redelivering one ' +
      'that failed.',
  },
  {
    name: 'provider-contract',
    title: 'Standard Delivery Provider Contract',
    audience: 'providers',
    document: providerApiDocument,
    published: '/v1/openapi.json',
    publishedOn: 'provider-delivery',
    tryItOut: false,
    summary:
      'For a delivery provider that platforms dispatch to, and for a platform calling one: creating, reading, updating, ' +
      'cancelling and returning deliveries, their status and tracking, the signed callbacks (`X-Platform-Signature`) ' +
      'a provider sends as a delivery moves, the webhook test, errors and limits. `sdp-conformance` certifies an ' +
      'implementation.',
  },
  {
    name: 'provider-courier',
    title: 'Delivery provider: courier API',
    audience: 'drivers',
    document: providerCourierApiDocument,
    published: '/courier/v1/openapi.json',
    publishedOn: 'provider-delivery',
    tryItOut: false,
    summary:
      'For the app of a delivery provider’s drivers, with the driver’s courier token: the driver’s profile, going on ' +
      'and off duty, sharing the location, accepting or declining an offered delivery, reading it and reporting its ' +
      'events (pickup, drop-off).',
  },
] as const satisfies ReadonlyArray<{
  name: string;
  title: string;
  audience: Audience;
  document: unknown;
  published: string;
  publishedOn: PublishedOn;
  tryItOut: boolean;
  summary: string;
}>;

export type DocEntry = (typeof DOCS)[number];

/** The exported file of a document, under docs/api/. */
export const exportedFileOf = (doc: Pick<DocEntry, 'name'>): string => `${doc.name}.openapi.json`;

/** The AsyncAPI document of the Kafka topics: a file only (no page; exported-documents.ts). */
export const TOPICS_FILE = 'platform-topics.asyncapi.json';
