import { PARTNER_ERROR_CODES } from '../openapi/partner-api';

/**
 * The problem types: every `code` a problem+json answer of the gateway or of a service behind it
 * (catalog, ordering-pricing, delivery-assignment, webhook-sender) can carry, each with the page
 * `/docs/problems/<code>` serves (the problem's `type`: `problemTypeUri` of @marketplace/http).
 * The Partner API's codes take their statuses and meaning from its Errors table
 * (PARTNER_ERROR_CODES); the others are written here. problem-types.test.ts reads the codes the
 * sources make and checks this list against them, both ways, statuses included.
 */
export interface ProblemType {
  code: string;
  title: string;
  statuses: number[];
  /** Who can get it: the Partner API, or the other APIs named. */
  apis: string;
  meaning: string;
  action: string;
  retry: string;
}

interface Entry {
  title: string;
  /** Only for codes outside the Partner API's Errors table. */
  statuses?: number[];
  /** Instead of the Errors table's text, or for a code outside it. */
  meaning?: string;
  apis?: string;
  action?: string;
  retry?: string;
}

const PARTNER = 'Partner API';
const TENANT = 'tenant API';
const MARKETPLACE = 'administrator and tenant APIs';
const PROCESSOR = 'payment processor notifications';
const EVERY = 'every API';
const CALLBACKS = "providers' callbacks to the marketplace (provider contract envelope)";
const CONNECTIONS = 'tenant and administrator provider-connection APIs';

const SAME_KEY = 'A POST or PATCH keeps its `Idempotency-Key`, so a retry never does the work twice.';

/** What to do and whether to retry, by status, unless the code says otherwise. */
const BY_STATUS: Record<number, { action: string; retry: string }> = {
  400: {
    action: 'Correct the request as `detail` (and `errors`, when present) says, then send it again.',
    retry: 'No: the same request fails the same way.',
  },
  401: {
    action:
      'Check the credential: the whole API key (`Authorization: ApiKey <KEY_ID>.<API_SECRET>`) or bearer token, ' +
      'not revoked, not expired. A revoked API key needs a new one (the restaurant reconnects or rotates).',
    retry: 'Not with the same credential.',
  },
  403: {
    action:
      'The credential is valid but not for this operation: the restaurant must consent to a contract version granting the scope.',
    retry: 'No.',
  },
  404: {
    action:
      'Check the path and the identifier; a resource of another tenant or installation is indistinguishable from none.',
    retry: 'No.',
  },
  405: { action: 'Use one of the methods the `Allow` header lists.', retry: 'No.' },
  408: { action: 'Send the whole request (head and body) without pausing.', retry: `Yes, at once. ${SAME_KEY}` },
  409: {
    action: 'Read the current state of the resource (`status_detail.status` names it where present), then decide.',
    retry: 'No: the same request conflicts the same way until the state changes.',
  },
  413: { action: 'Send a smaller body.', retry: 'No.' },
  415: { action: 'Send the body as JSON (`Content-Type: application/json`).', retry: 'No.' },
  422: { action: 'The request is well formed but cannot be done as asked: see `detail`.', retry: 'No.' },
  429: {
    action:
      'Slow down: wait the seconds of `Retry-After` (on the Partner API, `RateLimit` names the policy and `t` the same ' +
      'wait); `RateLimit-Policy` states the quota.',
    retry: `Yes, after \`Retry-After\` seconds. ${SAME_KEY}`,
  },
  431: { action: 'Send fewer or shorter headers (at most 16 KiB with the request line).', retry: 'No.' },
  500: {
    action: "Nothing is wrong with the request. If it persists, report it with the answer's `X-Request-Id`.",
    retry: `Yes, with exponential backoff. ${SAME_KEY}`,
  },
  502: { action: 'Nothing is wrong with the request.', retry: `Yes, with exponential backoff. ${SAME_KEY}` },
  503: { action: 'Nothing is wrong with the request.', retry: `Yes, after \`Retry-After\` seconds. ${SAME_KEY}` },
  504: {
    action: 'Nothing is wrong with the request, but it may have taken effect: the retry settles it.',
    retry: `Yes, with exponential backoff. ${SAME_KEY}`,
  },
};

const ENTRIES: Record<string, Entry> = {
  // The Partner API's codes (statuses and meaning: PARTNER_ERROR_CODES); several come on every API.
  'request.malformed': { title: 'Body is not JSON', apis: EVERY },
  'request.invalid': { title: 'Request is invalid', apis: EVERY },
  'request.path_invalid': { title: 'Path is not canonical', apis: EVERY },
  'request.aborted': { title: 'Request aborted', apis: EVERY, retry: 'Yes, if the client still wants the answer.' },
  'idempotency.key_missing': { title: 'Idempotency-Key missing' },
  'idempotency.key_invalid': { title: 'Idempotency-Key invalid' },
  'auth.unauthenticated': { title: 'Not authenticated', apis: EVERY },
  'auth.insufficient_scope': { title: 'Scope missing' },
  'resource.not_found': { title: 'Not found', apis: EVERY },
  'request.method_not_allowed': { title: 'Method not allowed', apis: EVERY },
  'request.timeout': { title: 'Request not received in time', apis: EVERY },
  'idempotency.key_reused': {
    title: 'Idempotency-Key reused for another request',
    action: 'Use a new `Idempotency-Key` for a new request; reuse a key only to retry the very same request.',
  },
  'idempotency.request_in_progress': {
    title: 'Request with this Idempotency-Key still running',
    action: 'Wait: the first request with this key has not finished.',
    retry: 'Yes, shortly, with the same key and the same request: it then gets the first answer.',
  },
  'tenancy.partner_api.external_order_id_conflict': {
    title: 'externalOrderId already used',
    action:
      "Read the existing order (the first request's answer) rather than creating another; one `externalOrderId` is one order.",
  },
  'tenancy.order.price_mismatch': {
    title: 'Price differs from the expected total',
    action: 'Nothing was created. Read the catalog again, show the customer the new total, and send the order with it.',
    retry: 'After correcting `expectedTotal` (the same `Idempotency-Key` may be used: nothing was stored).',
  },
  'tenancy.partner_api.order_not_cancellable': {
    title: 'Order can no longer be cancelled',
    action: 'The order left Pending: ask the restaurant to cancel it.',
  },
  'delivery.accept_not_allowed': { title: 'Delivery cannot be accepted' },
  'delivery.reject_not_allowed': { title: 'Delivery cannot be rejected' },
  'delivery.cancel_not_allowed': { title: 'Delivery cannot be cancelled' },
  'delivery.transition_not_allowed': { title: 'Delivery status change not allowed' },
  'delivery.update_not_allowed': { title: 'Delivery cannot be updated' },
  'request.too_large': { title: 'Body too large', apis: EVERY },
  'request.unsupported_media_type': { title: 'Body is not JSON', apis: EVERY },
  'rate_limit.exceeded': {
    title: 'Rate limit exceeded',
    apis: EVERY,
    meaning:
      'Too many requests in the window of one of the limits (per client IP; per installation, tenant or ' +
      'administrator). The refused request was not counted and did nothing.',
  },
  'request.headers_too_large': { title: 'Request headers too large', apis: EVERY },
  internal: { title: 'Unexpected failure', apis: EVERY },
  'upstream.bad_response': { title: 'Internal service answered badly', apis: EVERY },
  'service.unavailable': { title: 'Service unavailable for a moment', apis: EVERY },
  'resource.busy': { title: 'Resource busy', apis: EVERY },
  'upstream.unavailable': { title: 'Internal service unavailable', apis: EVERY },
  'upstream.timeout': { title: 'Internal service did not answer in time', apis: EVERY },

  // The tenant API.
  'catalog.in_use': {
    title: 'Catalog resource still in use',
    statuses: [409],
    apis: TENANT,
    meaning: 'Deleting a catalog resource that others still use; `usedBy` lists them (at most 100).',
    action: 'Change or delete what uses it first, then delete it.',
  },
  'delivery.already_delivered': {
    title: 'Order already delivered',
    statuses: [409],
    apis: TENANT,
    meaning: 'Assigning the delivery of an order that was delivered already.',
    action: 'Nothing to assign.',
  },
  'delivery.assignment_in_progress': {
    title: 'Delivery already under way',
    statuses: [409],
    apis: TENANT,
    meaning: 'Reassigning a delivery that the installation holding it has accepted or started.',
    action: 'Cancel the order, or let the installation cancel the delivery, first.',
  },
  'delivery.branch_not_locatable': {
    title: 'Branch cannot be a pickup',
    statuses: [422],
    apis: TENANT,
    meaning: "The order's branch lacks what a pickup needs (an address and coordinates).",
    action: "Complete the branch's address and location in the catalog, then assign again.",
  },
  'delivery.copies_behind': {
    title: 'Recent changes not read yet',
    statuses: [503],
    apis: TENANT,
    meaning: 'Orders, installations or branches published a moment ago are not read by the delivery service yet.',
  },
  'delivery.installation_lacks_scope': {
    title: 'Installation cannot deliver',
    statuses: [422],
    apis: TENANT,
    meaning: 'The installation named for the delivery does not hold the scope `Delivery.Accept`.',
    action: 'Choose an installation of a delivery app, or install a contract version granting the scope.',
  },
  'delivery.installation_not_connected': {
    title: 'Installation not connected',
    statuses: [422],
    apis: TENANT,
    meaning: 'The installation named for the delivery is not connected.',
    action: 'Connect the installation first.',
  },
  'delivery.connection_not_certified': {
    title: 'Provider connection not enabled for deliveries',
    statuses: [422],
    apis: TENANT,
    meaning:
      "The provider connection's core is neither certified by a conformance certificate nor enabled by an administrator.",
    action: 'Submit a conformance certificate for the connection, or ask an administrator to enable its core.',
  },
  'sandbox.not_a_sandbox': {
    title: 'Not a sandbox installation',
    statuses: [403],
    apis: PARTNER,
    meaning: 'A sandbox scenario was asked for by an installation that is not one of a sandbox tenant.',
    action: 'Run scenarios with the API key of an installation of your sandbox tenant.',
  },
  'dispatch.no_rules': {
    title: 'No dispatch rules',
    statuses: [422],
    apis: TENANT,
    meaning: 'The tenant dispatched an order by its rules before setting any.',
    action: 'Set the dispatch rules (`PUT /api/tenant/v1/dispatch-rules`), or assign the delivery to one installation.',
  },
  'dispatch.no_connection_available': {
    title: 'No connection of the dispatch rules can take the delivery',
    statuses: [422],
    apis: TENANT,
    meaning: 'Every connection of the rules is unknown or not enabled for deliveries; `detail` says why for each.',
    action: 'Enable a connection of the rules, or add one that is enabled.',
  },
  'connection.certificate_untrusted': {
    title: 'Conformance certificate not trusted',
    statuses: [422],
    apis: CONNECTIONS,
    meaning:
      'The certificate is not signed, was edited after signing, or is signed by a key this marketplace does not trust.',
    action: 'Submit the certificate.json a conformance run signed with a key the marketplace trusts.',
  },
  'connection.certificate_mismatch': {
    title: 'Conformance certificate does not fit the connection',
    statuses: [422],
    apis: CONNECTIONS,
    meaning:
      'The certificate is for another base URL, for a contract other than 1.x, older than a year, or does not certify the core.',
    action: "Run the conformance kit against this connection's base URL and submit its certificate.",
  },
  'callback.unknown': {
    title: 'No delivery has this callback URL',
    statuses: [404],
    apis: CALLBACKS,
    meaning: "The callback URL's token names no delivery the marketplace dispatched.",
    action: 'Send each event to the callback URL of its own delivery, exactly as received on create.',
  },
  'auth.invalid_signature': {
    title: 'Callback signature missing or wrong',
    statuses: [401],
    apis: CALLBACKS,
    meaning:
      "X-Platform-Signature is missing, or is not the HMAC-SHA256 of the exact body with the connection's secret.",
    action: 'Sign the exact bytes sent with the webhook secret of the connection (lowercase hex, no prefix).',
  },
  'callback.status_unknown': {
    title: 'Status outside the vocabulary',
    statuses: [422],
    apis: CALLBACKS,
    meaning: "The event's status is not one of the contract's; the last recognised state is kept.",
    action: "Send only the contract's status values.",
  },
  'callback.reference_mismatch': {
    title: "Event is not this delivery's",
    statuses: [409],
    apis: CALLBACKS,
    meaning: "The event's platformReference or providerDeliveryId is not the delivery's this callback URL belongs to.",
    action: "Send each delivery's events to its own callback URL, with its platformReference unchanged.",
  },
  'delivery.installation_unknown': {
    title: 'No such installation',
    statuses: [422],
    apis: TENANT,
    meaning: 'The tenant has no installation with the id named for the delivery.',
    action: "Name one of the tenant's installations.",
  },
  'delivery.order_not_assignable': {
    title: 'Order cannot be assigned',
    statuses: [409],
    apis: TENANT,
    meaning: 'Only a Pending or Accepted order can be assigned; `status_detail.status` names its status.',
  },
  'delivery.order_not_deliverable': {
    title: 'Order is not a delivery',
    statuses: [422],
    apis: TENANT,
    meaning: 'Only a Delivery order (orderMode 1) can be assigned.',
  },
  'delivery.provider_not_notifiable': {
    title: 'Installation cannot be told of the delivery',
    statuses: [422],
    apis: TENANT,
    meaning:
      'The installation lacks what it needs to receive the assignment (a webhook URL, the delivery events); `detail` says which.',
    action: "Change the installation (or its app's contract version) so that it receives the delivery events.",
  },
  'order.invalid_transition': {
    title: 'Order cannot do this now',
    statuses: [409],
    apis: TENANT,
    meaning: "The tenant's order action is not allowed in the order's status; `status_detail.status` names it.",
  },
  'order.payment_not_recordable': {
    title: 'Payment cannot be recorded',
    statuses: [409],
    apis: TENANT,
    meaning: 'The payment was recorded already, or the order is in a status where none can be.',
  },
  'promotion.code_taken': {
    title: 'Promotion code taken',
    statuses: [409],
    apis: TENANT,
    meaning: 'The restaurant already has a promotion with this code.',
    action: 'Choose another code.',
  },
  'webhook.delivery_in_progress': {
    title: 'Webhook delivery still being attempted',
    statuses: [409],
    apis: TENANT,
    meaning: 'A redelivery was asked for a webhook delivery whose attempts have not ended.',
    action: 'Wait for the delivery to end (delivered or given up), then ask again.',
    retry: 'Yes, once the delivery has ended.',
  },
  'webhook.installation_not_receiving': {
    title: 'Installation receives no webhooks',
    statuses: [409],
    apis: TENANT,
    meaning: 'The installation is not connected or has no webhook URL, so nothing can be sent to it.',
    action: 'Connect the installation, with a webhook URL, first.',
  },
  'provider_callback.superseded': {
    title: 'Provider callback superseded',
    statuses: [409],
    apis: TENANT,
    meaning:
      "A redelivery was asked for a provider delivery's nonterminal event after its terminal event was received.",
    action: 'Nothing to send: the later event stands.',
  },

  // The administrator and tenant APIs of the gateway (the marketplace).
  'marketplace.tenant.slug_taken': {
    title: 'Tenant slug taken',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'A tenant with this slug exists.',
    action: 'Choose another slug.',
  },
  'marketplace.app.slug_taken': {
    title: 'App slug taken',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'An app with this slug exists.',
    action: 'Choose another slug.',
  },
  'marketplace.contract_version.published': {
    title: 'Contract version is published',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'A published contract version is immutable.',
    action: 'Add a new contract version with the change.',
  },
  'marketplace.installation.exists': {
    title: 'App already installed',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'The tenant already has this app installed.',
    action: 'Use the existing installation.',
  },
  'marketplace.installation.already_connected': {
    title: 'Installation already connected',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'Connect was asked of a Connected installation.',
    action: 'Use reconnect to issue new credentials.',
  },
  'marketplace.installation.not_connected': {
    title: 'Installation not connected',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'The operation needs a connected installation.',
    action: 'Connect the installation first.',
  },
  'marketplace.installation.no_events': {
    title: 'App subscribes to no events',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: 'The app subscribes to no events, so there is no webhook signing secret to rotate or show.',
  },
  'marketplace.installation.oauth_unavailable': {
    title: 'No OAuth2 settings',
    statuses: [409],
    apis: MARKETPLACE,
    meaning: "The installation's contract version has no OAuth2 settings, so an OAuth2 connect cannot start.",
    action: 'Connect with an API key, or install a contract version with OAuth2 settings.',
  },
  'oauth.state_invalid': {
    title: 'OAuth2 callback state invalid',
    statuses: [400],
    apis: MARKETPLACE,
    meaning: 'The OAuth2 callback came with an unknown, expired or used `state`, or without its parameters.',
    action: 'Start the connect again from the dashboard.',
  },
  'oauth.authorization_denied': {
    title: 'Partner denied the authorization',
    statuses: [400],
    apis: MARKETPLACE,
    meaning: "The partner's authorization server answered the OAuth2 connect with an error such as `access_denied`.",
    action: 'Start the connect again, and grant the access at the partner.',
  },
  'oauth.endpoint_invalid': {
    title: 'OAuth2 endpoint invalid',
    statuses: [400],
    apis: MARKETPLACE,
    meaning: "A partner's OAuth2 endpoint is not an absolute http(s) URL.",
    action: "Correct the contract version's OAuth2 settings (in a new version).",
  },
  'oauth.token_exchange_failed': {
    title: "Partner's token endpoint failed",
    statuses: [502],
    apis: MARKETPLACE,
    meaning: "The partner's token endpoint failed or answered badly during an OAuth2 connect.",
    action: 'Start the connect again later; if it keeps failing, the partner must fix its token endpoint.',
    retry: 'Yes, by starting the connect again.',
  },
  'oauth.token_exchange_timeout': {
    title: "Partner's token endpoint did not answer",
    statuses: [504],
    apis: MARKETPLACE,
    meaning: "The partner's token endpoint did not answer in time during an OAuth2 connect.",
    action: 'Start the connect again later.',
    retry: 'Yes, by starting the connect again.',
  },

  // Payment processors' notifications.
  'payment.event_conflict': {
    title: 'Event id reused with another body',
    statuses: [409],
    apis: PROCESSOR,
    meaning:
      'A notification came with an event id received before with another body; an event id names one notification.',
    action: 'Send a new event id for a new notification.',
  },
  'payment.method_not_card': {
    title: 'Payment method is not a card',
    statuses: [422],
    apis: PROCESSOR,
    meaning: 'The order is not paid by card online, so no processor can confirm its payment.',
  },
  'payment.currency_mismatch': {
    title: 'Payment currency differs',
    statuses: [422],
    apis: PROCESSOR,
    meaning: "The notification's currency is not the order's.",
  },
  'payment.amount_mismatch': {
    title: 'Payment amount differs',
    statuses: [422],
    apis: PROCESSOR,
    meaning: "The notification's amount is not the order's total.",
  },
};

function problemType(code: string, entry: Entry): ProblemType {
  const partner = PARTNER_ERROR_CODES[code];
  const statuses = partner?.statuses ?? entry.statuses ?? [];
  const meaning = entry.meaning ?? partner?.when ?? '';
  const byStatus = BY_STATUS[statuses[0]!] ?? { action: 'See `detail`.', retry: 'No.' };
  return {
    code,
    title: entry.title,
    statuses,
    apis: entry.apis ?? PARTNER,
    meaning,
    action: entry.action ?? byStatus.action,
    retry: entry.retry ?? byStatus.retry,
  };
}

/** Every problem type, by code. */
export const PROBLEM_TYPES: ReadonlyMap<string, ProblemType> = new Map(
  Object.entries(ENTRIES).map(([code, entry]) => [code, problemType(code, entry)]),
);
