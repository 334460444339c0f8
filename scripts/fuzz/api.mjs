#!/usr/bin/env node
// `npm run fuzz:api`: fuzzes the running cluster's HTTP APIs with Schemathesis
// (https://schemathesis.io) against every OpenAPI document they serve, one schemathesis run per
// target. A developer tool, and in `npm test` as the jest project `fuzz`
// (test/fuzz/schemathesis.fuzz.test.ts: its own cluster, the demo seed, a fixed seed).
//
//   npm start                      # one terminal: the cluster
//   npm run demo:seed -- --webhook-url http://127.0.0.1:8080/hooks --out .demo/fixture.json
//   npm run fuzz:api               # every target, 50 examples per operation and phase
//   npm run fuzz:api -- --only partner-orders,tenant-orders --max-examples 200 --seed 1234
//   npm run fuzz:api -- --install  # only install schemathesis (CI does this first)
//
// Targets, in the order they run (`--only` picks some). Documents are read from the gateway; the
// tenant documents are served by their owners behind the gateway's tenant token check:
//   partner-orders    GET /api/partner/v1/openapi.json, paths /api/partner/v1/catalog and /orders,
//                     `Authorization: ApiKey <key>` of the demo order source (Catalog.Read, Orders.Create)
//   partner-delivery  the same document, paths /api/partner/v1/deliveries, with the key of the demo
//                     delivery provider (Delivery.*, Orders.Read). Two runs because no installation
//                     holds both sets of scopes: with one key, half the operations would only ever
//                     answer 403. Its order ids are demo orders assigned (tenant API) to this
//                     provider, so accept, reject, cancel, status and the updates really run (200, or
//                     409 in a status that does not allow them), and one assigned to the second demo
//                     provider, which this key does not hold (404, like a random id).
//   tenant-orders     GET /api/tenant/v1/orders/openapi.json (ordering-pricing: orders, zones,
//                     promotions, service fee), with the demo tenant's bearer token
//   tenant-deliveries GET /api/tenant/v1/deliveries/openapi.json (delivery-assignment: assign and
//                     reassign an order's delivery, read it), tenant token; after partner-delivery,
//                     whose orders it may reassign
//   tenant-webhooks   GET /api/tenant/v1/webhooks/openapi.json (webhook-sender), tenant token
//   tenant-catalog    GET /api/tenant/v1/catalog/openapi.json (catalog), tenant token
//   tenant            GET /api/marketplace/openapi.json, paths /api/tenant (the gateway's own:
//                     apps, installations), tenant token
//   admin             the same document, paths /api/admin, with an admin bearer token minted here
//                     (HS256 JWT signed with MARKETPLACE_TOKEN_SECRET, via gateway-auth's dist/), or
//                     MARKETPLACE_ADMIN_TOKEN when set
//   oauth             the same document, paths /api/marketplace/oauth (no token: the callback is public)
//   provider          provider-delivery's provider contract: GET <provider>/v1/openapi.json, base URL
//                     <provider>/v1, `Authorization: Bearer <apiKey>` of the demo platform account
//                     (the fixture's `provider`). Not through the gateway: platforms call
//                     provider-delivery directly. Before the run, six deliveries are created with
//                     that key and moved by the operations API (provider-delivery's administrator
//                     token, signed here with PROVIDER_ADMIN_TOKEN_SECRET, or PROVIDER_ADMIN_TOKEN):
//                     one stays provider_accepted, one gets a driver, one is delivered, three are
//                     picked up; their ids are the dictionaries of `providerDeliveryId` (cancel and
//                     return each with a picked-up one of their own), so status, tracking, update,
//                     cancel and return meet real deliveries in several statuses (200s, `confirmed:
//                     false`, `fieldAccepted` false) besides the 404 of random ids. In the fuzzing
//                     and stateful phases a create's pickup and drop-off are pinned inside the
//                     account's service area, and its amount and fee to two decimals, so creates are
//                     accepted and the stateful phase follows them. The account's rate limit (1,200
//                     requests a minute by default) is raised to 1,000,000 for the run and set back
//                     afterwards.
// The partner, tenant and provider targets use the demo data of `npm run demo:seed` (its fixture
// file, --fixture, default .demo/fixture.json): keys, token and ids. Before the runs, one demo order is
// placed with the order source's key, so reads and actions find a real order. The order comes
// first: the tenant targets may change what the partner targets rely on (the tenant catalog run
// edits and deletes demo products; the tenant run disconnects installations and rotates their
// keys): after a local run, run the demo seed again.
//
// Every target runs every check (`--checks all`: in 4.x every built-in check is on by default
// anyway; `object_level_authorization` needs two users and does not run), all phases (examples,
// coverage, fuzzing; stateful wherever schemathesis finds links: our documents declare none,
// schemathesis 4 infers them from the response schemas and the parameter names).
//
// Real identifiers (schemathesis.toml, written per run, see `configFor`): schemathesis cannot
// invent an existing branch, product, order or installation, so each target gets the demo data's
// ids as dictionaries, drawn for an id parameter half the time (the other half stays random, so the
// 404 path is fuzzed too). In the fuzzing and stateful phases POST /orders gets the state-dependent
// fields of its body pinned to the demo order (branch, delivery zone, an address inside it, six
// colas, the promotion DEMO10) and every other field generated, so orders are really created and
// the stateful phase reads and cancels them (links: GET /catalog/branches -> products, POST /orders
// -> GET /orders/{orderId}, and from the orders' Location headers).
//
// partner-delivery and tenant-deliveries need delivery-assignment running behind the gateway
// (DELIVERY_URL): the demo orders are assigned through its tenant API before the runs.
//
// Excluded on purpose (EXCLUSIONS below, printed in the summary):
//   - oauth: positive_data_acceptance (ST202) on GET /api/marketplace/oauth/callback. Its only
//     required parameter is `state`, any non-empty string by the schema, but a made-up state names
//     no pending authorization and is legitimately 400 oauth.state_invalid.
//   - partner-orders, partner-delivery, tenant-orders, tenant-deliveries, tenant-catalog, provider,
//     admin: positive_data_acceptance is replaced by positive_data_acceptance_beyond_schema
//     (scripts/fuzz/hooks.py): the same check, except that a 400 whose field errors are all
//     rejections no schema can state passes (BEYOND_SCHEMA_ERRORS, each a whole message: an id the
//     tenant does not have, a zone of another branch, a promotion rule, a rule between two fields
//     such as validUntil after validFrom, an ETA too far from the service's clock), and so does a
//     422 whose code is one of BEYOND_SCHEMA_CODES (an installation the tenant does not have, or
//     one not connected, without Delivery.Accept or that cannot be told, for an assignment). Schemathesis allows
//     404 and 409 by default for such requests; our services answer them 400 with the field's
//     message, like a schema violation, so allowing 400 would hide every document mismatch of the
//     operation. Any other message in the same answer still fails the check. (The coverage phase
//     also builds bodies from the schema alone, without the pins above: its unknown ids pass here.)
//     provider-delivery answers invalid fields with 422 `request.invalid` and `fieldErrors` (the
//     provider contract's envelope): such a 422 passes when every message is in
//     BEYOND_SCHEMA_ERRORS (an amount with more than two decimals; a callback URL whose host does
//     not resolve, or resolves to a private address: DNS, not a shape).
// A check is never excluded for a mismatch between a document and its service: that is a failure
// to fix, in the document or in the service.
//
// In `npm test`, test/fuzz/schemathesis.fuzz.test.ts runs every target with its own cluster and the
// demo seed, --seed 20261124 --max-examples 25 --timeout-minutes 2; to repeat one of its failures
// locally: npm start, the demo seed (above), then
//   npm run fuzz:api -- --only TARGET --seed 20261124 --max-examples 25
//
// Schemathesis is installed on first use into a virtualenv shared by every checkout on this machine,
// next to the stack's other downloads: ${XDG_CACHE_HOME:-~/.cache}/marketplace-stack/schemathesis-<version>/.
//
// Secrets are never printed: keys and tokens reach schemathesis in an environment variable named in
// its configuration file (`headers`), not on its command line; schemathesis sanitizes the
// Authorization header (and `token`/`secret`/`credentials` fields) in what it prints, and its output
// passes through a filter here that masks the known keys and tokens and anything shaped like a
// platform secret (an API key in a failed response body, say). Never pass `--output-sanitize false`.
import { spawn, spawnSync } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { readStackEnv, root, runningServices, stackDir } from '../services.mjs';

const SCHEMATHESIS_VERSION = '4.32.5';
const MIN_PYTHON = [3, 11]; // schemathesis 4.x: Requires-Python >= 3.11
const CACHE_ROOT = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'marketplace-stack');
const VENV_DIR = join(CACHE_ROOT, `schemathesis-${SCHEMATHESIS_VERSION}`);
const VENV_MARKER = join(VENV_DIR, '.installed'); // written last: a venv without it is a failed install
const SCHEMATHESIS = join(VENV_DIR, 'bin', 'schemathesis');
const RUN_DIR = join(VENV_DIR, 'runs'); // schemathesis' working directory

const DEFAULT_FIXTURE = join(root, '.demo', 'fixture.json');
/** The environment variable the generated configuration reads the Authorization header from. */
const AUTH_ENV = 'MARKETPLACE_FUZZ_AUTHORIZATION';
/** How often a dictionary (real ids of the demo data) is drawn for a parameter bound to it. */
const REAL_ID_PROBABILITY = 0.5;

const READY_TIMEOUT_MS = 3_000; // GET /readyz
const HTTP_TIMEOUT_MS = 10_000; // the documents and the calls made here
const REQUEST_TIMEOUT_S = 30; // each request schemathesis makes
const VENV_TIMEOUT_MS = 2 * 60_000;
const PIP_TIMEOUT_MS = 10 * 60_000;
const INSTALL_LOCK_WAIT_MS = PIP_TIMEOUT_MS + VENV_TIMEOUT_MS; // another run installing at the same time
const KILL_GRACE_MS = 10_000;
/** Ordering learns of the seeded menu from the catalog's events: the demo order may wait for it. */
const DEMO_ORDER_WAIT_MS = 20_000;

const PARTNER_DOC = '/api/partner/v1/openapi.json';
const MARKETPLACE_DOC = '/api/marketplace/openapi.json';
/** The demo platform account's rate limit during a provider run (PLATFORM_RATE_LIMIT's maximum). */
const PROVIDER_FUZZ_RATE_LIMIT = 1_000_000;

/**
 * The targets, in the order they run. `credential`: admin | tenant | orderSource |
 * deliveryProvider | platform | null. `pathRegex`: the operations of the document this target
 * fuzzes (null: all of them). `service`: whose origin serves the document (the gateway unless
 * `provider`: provider-delivery, whose API lives under `basePath`). Exclusions: EXCLUSIONS.
 */
const TARGETS = {
  'partner-orders': {
    document: PARTNER_DOC,
    pathRegex: '^/api/partner/v1/(catalog|orders)(/|$)',
    credential: 'orderSource',
  },
  'partner-delivery': {
    document: PARTNER_DOC,
    pathRegex: '^/api/partner/v1/deliveries/',
    credential: 'deliveryProvider',
  },
  // Before tenant-orders, which edits the zones and promotions the demo order needs.
  'tenant-deliveries': {
    document: '/api/tenant/v1/deliveries/openapi.json',
    pathRegex: null,
    credential: 'tenant',
  },
  'tenant-orders': { document: '/api/tenant/v1/orders/openapi.json', pathRegex: null, credential: 'tenant' },
  'tenant-webhooks': { document: '/api/tenant/v1/webhooks/openapi.json', pathRegex: null, credential: 'tenant' },
  'tenant-catalog': { document: '/api/tenant/v1/catalog/openapi.json', pathRegex: null, credential: 'tenant' },
  tenant: { document: MARKETPLACE_DOC, pathRegex: '^/api/tenant/', credential: 'tenant' },
  admin: { document: MARKETPLACE_DOC, pathRegex: '^/api/admin/', credential: 'admin' },
  oauth: { document: MARKETPLACE_DOC, pathRegex: '^/api/marketplace/oauth/', credential: null },
  provider: {
    service: 'provider',
    document: '/v1/openapi.json',
    basePath: '/v1',
    pathRegex: null,
    credential: 'platform',
  },
};
const needsDemo = (name) => TARGETS[name].credential !== null && TARGETS[name].credential !== 'admin';

/**
 * Checks excluded or replaced, each with why. Narrow: one check, the targets named, a reason the
 * documents cannot express. (positive_data_acceptance allows by default 2xx, 3xx, 401, 403, 404,
 * 409, 429 and 5xx, the last left to not_a_server_error: a schema-valid request about an unknown
 * id in the path, or a conflict with stored state, passes as it is; 400 and 422 do not.)
 */
const EXCLUSIONS = [
  {
    targets: ['oauth'],
    excludeChecks: ['positive_data_acceptance'],
    text: 'oauth: positive_data_acceptance (ST202 "Schema-valid request rejected") is not run on GET /api/marketplace/oauth/callback: its only required parameter is `state`, any non-empty string by the schema, but a made-up state names no pending authorization and is legitimately 400 oauth.state_invalid. Every other check still runs against the callback.',
  },
  {
    targets: [
      'partner-orders',
      'partner-delivery',
      'tenant-orders',
      'tenant-deliveries',
      'tenant-catalog',
      'provider',
      'admin',
    ],
    excludeChecks: ['positive_data_acceptance'],
    beyondSchema: true,
    text: 'partner-orders, partner-delivery, tenant-orders, tenant-deliveries, tenant-catalog, provider, admin: positive_data_acceptance is replaced by positive_data_acceptance_beyond_schema (scripts/fuzz/hooks.py), the same check except that a 400 whose field errors are all rejections no schema can state (BEYOND_SCHEMA_ERRORS: an id the tenant does not have, a zone of another branch, a promotion rule, a rule between two fields such as validUntil after validFrom, an active branch without address or coordinates, a contract version with a Delivery.* scope not subscribed to delivery.assigned, an ETA more than 5 minutes past or 7 days ahead of the clock, a string that is not an RFC 3339 date-time, since JSON Schema makes `format` an annotation that schemathesis does not assert) passes, and so does a 422 whose code is a rule of stored data (BEYOND_SCHEMA_CODES: an assignment to an installation the tenant does not have, not connected, without Delivery.Accept, or that cannot be told; a Pickup order; a branch without address or coordinates), and a 422 of provider-delivery whose fieldErrors are all such rejections (an amount with more than two decimals, a callback host that does not resolve or resolves to a private address). The services answer these 400 like a schema violation, so allowing 400 (or 422) would hide every document mismatch of the operation; any other message or code in the same answer still fails it.',
  },
];

/**
 * The messages of 400s that no schema can state (Python regular expressions, each matching a whole
 * field message), for positive_data_acceptance_beyond_schema. Keep in step with the services.
 */
const BEYOND_SCHEMA_ERRORS = [
  // Stored state. ordering-pricing (POST /orders, zones, promotions): its catalog copy, zones, promotions.
  'is not (an active branch|a branch) of this restaurant',
  'is not a delivery zone of this branch',
  'is not active',
  'lies outside the delivery zone',
  'is not a variant of this product',
  'is not available at this branch',
  'is not a modifier group of (this variant|the option chosen by the parent selection)',
  'is not an option of this modifier group',
  "the modifier group '.*' of .* (needs at least|allows at most) \\d+ selections?",
  "the subtotal is below this delivery zone's minimum order of .*",
  'is not a promotion code of this restaurant',
  'is not valid yet|has expired|is not valid at this branch|needs a higher subtotal|has reached its usage limit',
  // Stored state, both services: references to the tenant's catalog, the tenant's default language.
  'is not a (product|category|tax category|modifier group) of this catalog',
  "is not one of this catalog's (products|variants|modifier options)",
  'is not an id this resource has; leave it out for a new one',
  'is the default language; put this text in name',
  // Whether a language subtag is a known ISO 639 language is the runtime's locale data (ICU), not a shape.
  'is not a known language \\(a BCP 47 tag such as de or de-AT\\)',
  // Modifier groups nest by id: a cycle or the depth shows only with the tenant's stored groups.
  'nests groups in a cycle: a group would contain itself',
  'nests groups more than \\d+ levels deep',
  // The WHATWG URL parser (what the service and browsers use) and RFC 3986 (`format: uri`) differ at the edges.
  'must be an absolute https URL',
  // JSON Schema 2020-12 makes `format` an annotation, and schemathesis's coverage phase takes an
  // empty string for a nullable `date-time` as schema-valid; the services assert the format (the
  // documents say RFC 3339 in the field's description), as ajv-formats checks it.
  'must match format "date-time"',
  // provider-delivery's callback URLs (a create's webhook.url, the webhook test's url): the host is
  // resolved when the request comes, and every address must be public (DNS, not a shape; an IP
  // literal is judged by the same rule).
  'must name a host that resolves',
  // DNS's own limits on a host name (labels of at most 63 characters, 253 in all), which the
  // resolver enforces; `format: uri` does not.
  'must name a valid host \\(labels of 1 to 63 letters, digits or hyphens, 253 in all\\)',
  'must not resolve to a private or internal address',
  'must not point at a private or internal address',
  // An order at a branch stored without an address or coordinates (before catalog required them of an active branch).
  'has no address or coordinates, so it cannot take orders',
  // Rules between fields or items, which JSON Schema cannot compare.
  'must be after validFrom',
  // Rules between fields that JSON Schema could state (if/then), but ajv would name every other
  // item as wrong (`contains`) or the object as a whole: the services check them, one message each.
  'is required for an active branch \\(one that takes orders\\)', // catalog, POST/PUT /branches
  "must include delivery\\.assigned: a version with a Delivery\\.\\* scope is a delivery provider's", // gateway, contract versions
  'must not be greater than maxSelections',
  'must be true exactly when minSelections is at least 1',
  'must not be greater than the number of options \\(\\d+\\)',
  'has \\d+ default options, more than maxSelections \\(\\d+\\)',
  // Relative to the service's clock (delivery-assignment, PATCH /deliveries/{orderId}/eta): a
  // schema states fixed bounds only.
  'must not be more than \\d+ minutes in the past',
  'must not be more than \\d+ days ahead',
  'appears twice',
  'repeats the language .*',
  // Decimals. An amount's are the tenant currency's (stored state: EUR 2, JPY 0, KWD 3); a percent's
  // and a tax rate's are fixed, but `multipleOf: 0.01` cannot state them for binary floats (0.29 is
  // not a multiple of 0.01 in floating point), so the schemas give the range and the services the rest.
  'must be an amount from 0 to 1000000 with at most \\d+ decimals \\(.*\\)',
  'must be a (non-negative|positive) amount with at most \\d+ decimals',
  'must be more than 0 and at most 100, with at most 2 decimals',
  'must have at most 2 decimals',
  'must have at most two decimals', // provider-delivery's amounts (the contract: two decimal places)
  'must be a percentage from 0 to 100 with at most 4 decimals',
  // Counting matches in an array (exactly one default variant) needs maxContains, which draft-07
  // (what the services validate with) does not have.
  'must have exactly one default variant \\(isDefault\\), not \\d+',
  // A zone's polygon: a ring's last position equal to its first, latitudes within -90..90 (a
  // position's two numbers have different bounds; tuple schemas differ between draft-07 and
  // OpenAPI 3.1), and the total count of positions across rings.
  'each ring must be closed \\(first and last positions equal\\)',
  'positions must have longitude -180 to 180 and latitude -90 to 90',
  'must have at most \\d+ positions',
];
/**
 * Problem codes of 422s that a schema-valid request gets for stored state alone
 * (delivery-assignment, POST /api/tenant/v1/deliveries/{orderId}/assign: the installation named,
 * the order's mode, its branch), for positive_data_acceptance_beyond_schema. Keep in step with the
 * service.
 */
const BEYOND_SCHEMA_CODES = [
  'delivery.installation_unknown',
  'delivery.installation_not_connected',
  'delivery.installation_lacks_scope',
  'delivery.provider_not_notifiable',
  'delivery.order_not_deliverable',
  'delivery.branch_not_locatable',
];
const HOOKS_FILE = join(root, 'scripts', 'fuzz', 'hooks.py');
const exclusionsOf = (name) => EXCLUSIONS.filter((e) => e.targets.includes(name));

const tilde = (path) => path.replace(homedir(), '~');
const USAGE = `usage: npm run fuzz:api -- [--only TARGETS] [--fixture FILE] [--gateway URL] [--provider URL]
                        [--max-examples N] [--seed N] [--timeout-minutes M] [-- SCHEMATHESIS-RUN-OPTIONS...]
       npm run fuzz:api -- --install

  --only T            fuzz only these targets (comma-separated, or repeat the option); default all, in this order:
                        partner-orders    Partner API catalog and orders, demo order source's API key
                        partner-delivery  Partner API deliveries, demo delivery provider's API key
                        tenant-orders     /api/tenant/v1/orders/openapi.json, demo tenant's token
                        tenant-deliveries /api/tenant/v1/deliveries/openapi.json, demo tenant's token
                        tenant-webhooks   /api/tenant/v1/webhooks/openapi.json, demo tenant's token
                        tenant-catalog    /api/tenant/v1/catalog/openapi.json, demo tenant's token
                        tenant            ^/api/tenant of /api/marketplace/openapi.json, demo tenant's token
                        admin             ^/api/admin of /api/marketplace/openapi.json, an admin token
                        oauth             the OAuth2 callback (no token)
                        provider          provider-delivery's /v1/openapi.json (the provider contract),
                                          the demo platform account's API key
  --fixture FILE      the demo seed's fixture (default .demo/fixture.json): keys, tenant token and
                      ids for the partner, tenant and provider targets (create it with npm run demo:seed)
  --gateway URL       the gateway-auth service (default: where \`npm start\` runs it, http://127.0.0.1:4101)
  --provider URL      the provider-delivery service (default: the origin of the fixture's provider.baseUrl)
  --max-examples N    test cases per operation and phase (default 50)
  --seed N            schemathesis' random seed, to reproduce a run (default: a random one, printed);
                      with a seed, the examples database of earlier runs is not used: the seed alone decides
  --timeout-minutes M stop a target's run after M minutes and count it as failed (default 30)
  --install           install schemathesis ${SCHEMATHESIS_VERSION} if it is not yet, and exit
  -- ...              anything after a second \`--\` goes to \`schemathesis run\` as is, for example
                      \`-- --workers 4 --report junit --report-dir /abs/dir\`; never --output-sanitize
                      false (the output would show the keys and tokens)

Needs python3 >= ${MIN_PYTHON.join('.')} with the venv module the first time: schemathesis ${SCHEMATHESIS_VERSION} is installed
into ${tilde(VENV_DIR)}/ and reused. It runs in ${tilde(RUN_DIR)}/
(relative paths in passed-on options are relative to it).
The admin token is signed with MARKETPLACE_TOKEN_SECRET (environment, else .stack/local.env) by
shared/identity/dist, the code the gateway checks it with (\`npm run build\`), unless MARKETPLACE_ADMIN_TOKEN is set;
provider-delivery's administrator token (the provider target prepares deliveries and raises the demo
account's rate limit for the run) likewise with PROVIDER_ADMIN_TOKEN_SECRET, unless PROVIDER_ADMIN_TOKEN is set. The targets
change data: the admin target creates tenants and apps with random data, the tenant targets edit
the demo tenant's menu, orders and installations (its keys may be rotated: seed again afterwards),
the provider target creates, updates, cancels and returns deliveries of the demo platform account.
Fuzz a development cluster only.`;

class FuzzError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
const usageError = (message) => new FuzzError(`${message} (usage: npm run fuzz:api -- --help)`, 2);
const say = (line) => console.log(`fuzz:api: ${line}`);

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

function positiveInt(option, raw, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (!/^\d+$/.test(raw ?? '') || Number(raw) < min || Number(raw) > max)
    throw usageError(`${option} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      tokens: true,
      options: {
        only: { type: 'string', multiple: true },
        fixture: { type: 'string' },
        gateway: { type: 'string' },
        provider: { type: 'string' },
        'max-examples': { type: 'string' },
        seed: { type: 'string' },
        'timeout-minutes': { type: 'string' },
        install: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError(error.message);
  }
  const { values, positionals, tokens } = parsed;
  if (values.help) return { help: true };
  const terminator = tokens.findIndex((t) => t.kind === 'option-terminator');
  const stray = positionals.length - (terminator === -1 ? 0 : argv.length - tokens[terminator].index - 1);
  if (stray > 0) throw usageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const extra = terminator === -1 ? [] : argv.slice(tokens[terminator].index + 1);
  if (extra.some((arg) => /^--output-sanitize/.test(arg)))
    throw usageError('--output-sanitize is not passed on: the output would show the keys and tokens');
  if (values.install) return { help: false, installOnly: true };

  const only = (values.only ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const name of only)
    if (!(name in TARGETS))
      throw usageError(`--only must be among ${Object.keys(TARGETS).join(', ')}, got ${JSON.stringify(name)}`);
  return {
    help: false,
    installOnly: false,
    targets: Object.keys(TARGETS).filter((name) => only.length === 0 || only.includes(name)),
    fixtureFile: values.fixture === undefined ? undefined : resolve(values.fixture),
    gatewayUrl: serviceBase('--gateway', values.gateway ?? defaultGateway()),
    providerUrl: values.provider === undefined ? undefined : serviceBase('--provider', values.provider),
    maxExamples: values['max-examples'] === undefined ? 50 : positiveInt('--max-examples', values['max-examples']),
    seed: values.seed === undefined ? randomInt(0, 2 ** 31 - 1) : positiveInt('--seed', values.seed, { min: 0 }),
    seedGiven: values.seed !== undefined,
    timeoutMs:
      60_000 *
      (values['timeout-minutes'] === undefined
        ? 30
        : positiveInt('--timeout-minutes', values['timeout-minutes'], { max: 24 * 60 })),
    extra,
  };
}

function defaultGateway() {
  const gateway = runningServices().find((s) => s.name === 'gateway-auth');
  if (!gateway)
    throw new FuzzError('gateway-auth is not among the services in scripts/services.json; pass --gateway URL');
  return gateway.url;
}

/** A service's base URL (the gateway's, provider-delivery's) without a trailing slash. */
function serviceBase(option, raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`${option} must be an absolute URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`${option} must be an http(s) URL, got ${JSON.stringify(raw)}`);
  if (url.search || url.hash || url.username || url.password)
    throw usageError(`${option} must be a plain base URL (no query, fragment or credentials)`);
  return url.href.replace(/\/+$/, '');
}

// ---------------------------------------------------------------------------------------------
// The gateway: reachable, its documents, the credentials, the demo data
// ---------------------------------------------------------------------------------------------

const GATEWAY = { label: 'the gateway', option: '--gateway' };
const PROVIDER = { label: 'provider-delivery', option: '--provider' };

async function checkReachable(baseUrl, service = GATEWAY) {
  let res;
  try {
    res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(READY_TIMEOUT_MS) });
  } catch (error) {
    const why =
      error?.name === 'TimeoutError'
        ? `no answer within ${READY_TIMEOUT_MS / 1000} s`
        : (error?.cause?.code ?? error?.message);
    throw new FuzzError(
      `${service.label} is not reachable at ${baseUrl} (GET /readyz: ${why}): start the cluster with \`npm start\` in another terminal, or pass ${service.option} URL`,
    );
  }
  await res.body?.cancel();
  if (res.status !== 200)
    throw new FuzzError(
      `${service.label} at ${baseUrl} is not ready (GET /readyz answered ${res.status}); see \`npm run status\``,
    );
}

/** One JSON call: { status, body }; a FuzzError when unreachable (the message never holds a credential). */
async function call(gatewayUrl, authorization, method, path, { body, headers = {} } = {}) {
  let res;
  let text;
  try {
    res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    throw new FuzzError(
      `${method} ${path}: ${error?.name === 'TimeoutError' ? `no answer within ${HTTP_TIMEOUT_MS / 1000} s` : (error?.cause?.code ?? error?.message)}`,
    );
  }
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** An expected status, else a FuzzError naming the request, the status and the problem code. */
async function expectCall(gatewayUrl, authorization, method, path, expected, options) {
  const res = await call(gatewayUrl, authorization, method, path, options);
  if (!expected.includes(res.status)) {
    const problem =
      res.body && typeof res.body === 'object'
        ? `${res.body.code ?? ''} ${res.body.errors ? JSON.stringify(res.body.errors) : ''}`.trim()
        : '';
    throw new FuzzError(`${method} ${path}: unexpected ${res.status}${problem ? ` ${problem}` : ''}`);
  }
  return res;
}

/** Where a target's document and API are served: the gateway, or provider-delivery. */
const originOf = (name, origins) => (TARGETS[name].service === 'provider' ? origins.provider : origins.gateway);

/** Each target's document, loaded with the target's credential; it must have operations of the target. */
async function checkDocuments(origins, targets, credentials) {
  for (const name of targets) {
    const { document, pathRegex, credential } = TARGETS[name];
    const origin = originOf(name, origins);
    const res = await call(origin, credential ? credentials[credential] : undefined, 'GET', document);
    if (res.status !== 200 || typeof res.body?.paths !== 'object')
      throw new FuzzError(`${origin}${document} answered ${res.status} without an OpenAPI document (target ${name})`);
    // A renamed prefix must not turn into a green run that tested nothing.
    const re = new RegExp(pathRegex ?? '');
    if (!Object.keys(res.body.paths).some((path) => re.test(path)))
      throw new FuzzError(`no path of ${document} matches ${pathRegex} (target ${name})`);
  }
}

/**
 * An admin bearer token, signed the way its service checks it (the shared code it checks with):
 * the gateway's (MARKETPLACE_TOKEN_SECRET, or MARKETPLACE_ADMIN_TOKEN as it is) or
 * provider-delivery's (PROVIDER_ADMIN_TOKEN_SECRET, or PROVIDER_ADMIN_TOKEN).
 */
function adminToken(
  lifetimeMs,
  { secretName = 'MARKETPLACE_TOKEN_SECRET', tokenName = 'MARKETPLACE_ADMIN_TOKEN' } = {},
) {
  if (process.env[tokenName]) return process.env[tokenName];
  const module = join(root, 'shared/identity/dist/bearer-token.js');
  if (!existsSync(module)) throw new FuzzError('shared/identity/dist is missing: run `npm run build` first');
  let secret = process.env[secretName]; // as with `npm start`, the environment wins
  if (!secret && existsSync(join(stackDir, 'local.env'))) secret = readStackEnv()[secretName];
  if (!secret)
    throw new FuzzError(
      `no ${secretName}: set it (or ${tokenName}), or run \`npm run stack:up\` to create .stack/local.env`,
    );
  const key = Buffer.from(secret, 'base64');
  if (key.length < 32) throw new FuzzError(`${secretName} must be base64 of at least 32 bytes`);
  const { signBearerToken } = createRequire(import.meta.url)(module);
  return signBearerToken(key, { role: 'admin', sub: 'fuzz' }, new Date(Date.now() + lifetimeMs));
}
const PROVIDER_ADMIN = { secretName: 'PROVIDER_ADMIN_TOKEN_SECRET', tokenName: 'PROVIDER_ADMIN_TOKEN' };

function readFixture(file) {
  const path = file ?? DEFAULT_FIXTURE;
  const seedHint = `create it with \`npm run demo:seed -- --webhook-url http://127.0.0.1:8080/hooks --out ${file ? path : '.demo/fixture.json'}\`${file ? '' : ' or pass --fixture FILE'}`;
  if (!existsSync(path))
    throw new FuzzError(
      `the partner and tenant targets need the demo data, and ${path} does not exist: ${seedHint} (or fuzz only --only admin,oauth)`,
    );
  let fixture;
  try {
    fixture = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new FuzzError(`${path} is not a demo fixture (${error.message}): ${seedHint}`);
  }
  const { orderSource, deliveryProvider } = fixture.installations ?? {};
  if (
    !fixture.tenantApi?.token ||
    !orderSource?.apiKey ||
    !deliveryProvider?.apiKey ||
    !fixture.branches?.length ||
    !fixture.deliveryZones?.length
  ) {
    throw new FuzzError(`${path} lacks the demo seed's keys, token, branches or delivery zones: ${seedHint}`);
  }
  return { fixture, path };
}

/**
 * What the partner and tenant targets draw real ids from: the fixture's, the demo menu's (read
 * with the order source's key), a demo order placed now (for the targets that act on orders), the
 * installations' webhook deliveries. Checks on the way that the credentials the targets use still
 * work with this gateway.
 */
async function demoData(gatewayUrl, targets, fixture, fixturePath, credentials) {
  const uses = (...names) => targets.some((name) => names.includes(name));
  const needOrder = uses('partner-orders', 'partner-delivery', 'tenant-orders', 'tenant-deliveries');
  const needAssigned = uses('partner-delivery', 'tenant-deliveries');
  const needMenu = needOrder; // read with the order source's key
  const stale = (what) =>
    new FuzzError(
      `the gateway refused the ${what} of ${fixturePath} (401): it belongs to another cluster, or a later seed or a tenant fuzz run replaced it; run the demo seed again`,
    );
  const verify = async (credential, what, path) => {
    if ((await call(gatewayUrl, credentials[credential], 'GET', path)).status === 401) throw stale(what);
  };
  if (needMenu) await verify('orderSource', "order source's API key", '/api/partner/v1/catalog/branches');
  if (uses('partner-delivery'))
    await verify('deliveryProvider', "delivery provider's API key", `/api/partner/v1/orders/${randomUUID()}`);
  if (uses('tenant-orders', 'tenant-deliveries', 'tenant-webhooks', 'tenant-catalog', 'tenant') || needAssigned)
    await verify('tenant', 'tenant token', '/api/tenant/v1/installations');

  const source = credentials.orderSource;
  const mitte = fixture.branches.find((b) => b.name === 'Demo Bistro Mitte') ?? fixture.branches[0];
  const zone = fixture.deliveryZones.find((z) => z.branchId === mitte.id) ?? fixture.deliveryZones[0];
  const products = [];
  let cola;
  if (needMenu) {
    for (const branch of fixture.branches) {
      const menu = await expectCall(
        gatewayUrl,
        source,
        'GET',
        `/api/partner/v1/catalog/branches/${branch.id}/products`,
        [200],
      );
      for (const product of menu.body.categories.flatMap((c) => c.products)) {
        products.push(product.id);
        if (branch.id === mitte.id && product.name === 'Cola') cola = product;
      }
    }
  }
  // The demo order (the one the demo seed test places): six colas delivered inside the zone.
  const orderBody = cola && {
    branchId: mitte.id,
    orderMode: 1,
    paymentMethod: 1,
    deliveryZoneId: zone.id,
    deliveryAddress: {
      label: 'Home',
      addressLine: 'Torstraße 10',
      latitude: zone.inside.latitude,
      longitude: zone.inside.longitude,
    },
    lines: [{ productId: cola.id, variantId: cola.variants[0].id, quantity: 6, modifierSelections: [] }],
    ...(fixture.promotionCode ? { promotionCode: fixture.promotionCode } : {}),
  };
  /** Places one demo order (waiting for ordering to have the seeded menu); answers its id. */
  const placeOrder = async () => {
    const deadline = Date.now() + DEMO_ORDER_WAIT_MS;
    let order;
    for (;;) {
      order = await call(gatewayUrl, source, 'POST', '/api/partner/v1/orders', {
        headers: { 'idempotency-key': `fuzz-${randomUUID()}` },
        body: {
          ...orderBody,
          customerName: 'Fuzz Customer',
          customerPhone: '+49 30 555 0100',
          externalOrderId: `fuzz-${randomUUID()}`,
        },
      });
      // Ordering may not have the seeded menu from the catalog's events yet.
      if (order.status === 201 || order.status !== 400 || Date.now() > deadline) break;
      await sleep(500);
    }
    if (order.status !== 201)
      throw new FuzzError(
        `the demo order was refused: ${order.status} ${order.body?.code ?? ''} ${JSON.stringify(order.body?.errors ?? {})}: the demo data changed (a tenant fuzz run edits zones and promotions); run the demo seed again`,
      );
    return order.body.orderId;
  };
  /**
   * Assigns an order's delivery to an installation through delivery-assignment's tenant API; it
   * answers 503 while its copies of orders and installations are behind (the order was just placed).
   */
  const assignOrder = async (orderId, installationId) => {
    const path = `/api/tenant/v1/deliveries/${orderId}/assign`;
    const deadline = Date.now() + DEMO_ORDER_WAIT_MS;
    let res;
    for (;;) {
      res = await call(gatewayUrl, credentials.tenant, 'POST', path, { body: { installationId } });
      if (res.status !== 503 || Date.now() > deadline) break;
      await sleep(500);
    }
    if (res.status !== 201 && res.status !== 200)
      throw new FuzzError(
        `POST ${path}: ${res.status} ${res.body?.code ?? ''}: delivery-assignment did not assign the demo order (is it running behind the gateway's DELIVERY_URL? was the seed run against this cluster?)`,
      );
  };
  const orders = [];
  if (needOrder) {
    if (!cola) throw new FuzzError(`the demo menu of ${mitte.name} has no Cola: run the demo seed again`);
    orders.push(await placeOrder());
  }
  // Orders whose live delivery assignment the demo delivery provider holds (partner-delivery acts
  // on them: two, since accepting and cancelling one ends it), and one held by the second demo
  // provider (the first one's key gets 404 on it). Placed apart from the demo order above, which
  // partner-orders may cancel.
  const deliveryOrders = { held: [], notHeld: [] };
  if (needAssigned) {
    const { deliveryProvider, deliveryProviderB } = fixture.installations;
    for (let i = 0; i < 2; i++) {
      const orderId = await placeOrder();
      await assignOrder(orderId, deliveryProvider.installationId);
      deliveryOrders.held.push(orderId);
    }
    if (deliveryProviderB?.installationId) {
      const orderId = await placeOrder();
      await assignOrder(orderId, deliveryProviderB.installationId);
      deliveryOrders.notHeld.push(orderId);
    }
  }
  if (uses('tenant-catalog')) {
    const listed = await expectCall(gatewayUrl, credentials.tenant, 'GET', '/api/tenant/v1/catalog/products', [200]);
    products.push(...listed.body.map((p) => p.id));
  }
  // Every installation of the seed (deliveryProviderB only in fixtures of newer seeds).
  const seeded = ['orderSource', 'deliveryProvider', 'deliveryProviderB']
    .map((name) => fixture.installations[name])
    .filter((installation) => installation?.installationId);
  const installations = seeded.map((installation) => installation.installationId);
  const deliveries = [];
  if (uses('tenant-webhooks')) {
    for (const id of installations) {
      const res = await call(
        gatewayUrl,
        credentials.tenant,
        'GET',
        `/api/tenant/v1/webhooks/installations/${id}/deliveries`,
      );
      if (res.status === 200 && Array.isArray(res.body)) deliveries.push(...res.body.map((d) => d.id).filter(Boolean));
    }
  }
  say(
    `demo data: tenant ${fixture.tenantId}${orders.length ? `, order ${orders[0]} placed` : ''}` +
      (needAssigned
        ? `, ${deliveryOrders.held.length + deliveryOrders.notHeld.length} orders placed and assigned to the delivery providers`
        : '') +
      `, ${products.length} product entries, ${deliveries.length} webhook deliveries`,
  );
  return {
    tenantId: fixture.tenantId,
    branches: fixture.branches.map((b) => b.id),
    zones: fixture.deliveryZones.map((z) => z.id),
    products,
    orders,
    deliveryOrders,
    installations,
    apps: seeded.map((installation) => installation.appId),
    deliveries,
    // POST /orders: the state-dependent fields of the demo order; everything else is generated.
    orderPins: orderBody && {
      'body.branchId': orderBody.branchId,
      'body.orderMode': orderBody.orderMode,
      'body.deliveryZoneId': orderBody.deliveryZoneId,
      'body.deliveryAddress': orderBody.deliveryAddress,
      'body.lines': orderBody.lines,
      ...(fixture.promotionCode ? { 'body.promotionCode': fixture.promotionCode } : {}),
    },
  };
}

/**
 * What the provider target draws on: six deliveries of the demo platform account in four
 * statuses (created with its key, moved with the operations API), the create's pins (a pickup and drop-off
 * inside the account's service area: the demo branch and a point 1 km from it), and the account's
 * rate limit raised for the run (`restore` sets it back). Checks on the way that the fixture's key
 * still works with this provider-delivery.
 */
async function providerData(providerUrl, fixture, fixturePath, credentials, opsToken) {
  const key = credentials.platform;
  const ops = `Bearer ${opsToken}`;
  const { accountId } = fixture.provider;
  const unknown = await call(providerUrl, key, 'GET', `/v1/deliveries/${randomUUID()}/status`);
  if (unknown.status === 401)
    throw new FuzzError(
      `provider-delivery refused the platform API key of ${fixturePath} (401): it belongs to another cluster, or a later seed replaced it; run the demo seed again`,
    );
  const account = `/admin/v1/platform-accounts/${accountId}`;
  const settings = (await expectCall(providerUrl, ops, 'GET', account, [200])).body;
  const before = settings.rateLimit?.requestsPerMinute;
  // The courier simulator stays off during the run (deliveries created before keep their clock):
  // simulated drivers would move the deliveries the run draws on while it runs.
  const simulator = settings.simulator;
  await expectCall(providerUrl, ops, 'PATCH', account, [200], {
    body: {
      rateLimit: { requestsPerMinute: PROVIDER_FUZZ_RATE_LIMIT },
      ...(simulator ? { simulator: { ...simulator, enabled: false } } : {}),
    },
  });
  const restore = async () => {
    const body = {
      ...(before !== undefined && before !== PROVIDER_FUZZ_RATE_LIMIT
        ? { rateLimit: { requestsPerMinute: before } }
        : {}),
      ...(simulator?.enabled ? { simulator } : {}),
    };
    if (Object.keys(body).length === 0) return;
    const res = await call(providerUrl, ops, 'PATCH', account, { body });
    if (res.status !== 200)
      say(`could not set the demo platform account's rate limit and simulator back (${res.status})`);
  };
  try {
    const branch = fixture.deliveryZones[0].inside;
    const pickup = { pickupLat: branch.latitude, pickupLng: branch.longitude };
    const dropoff = { dropoffLat: branch.latitude + 0.008, dropoffLng: branch.longitude + 0.008 };
    const create = async () => {
      const reference = `fuzz-${randomUUID()}`;
      const res = await expectCall(providerUrl, key, 'POST', '/v1/deliveries', [200], {
        body: {
          platformReference: reference,
          idempotencyKey: reference,
          pickupAddress: 'Torstraße 1, 10119 Berlin',
          ...pickup,
          customerName: 'Fuzz Customer',
          customerPhone: '+49 30 555 0100',
          dropoffAddress: 'Kastanienallee 10, 10435 Berlin',
          ...dropoff,
          paymentMethod: 'card',
          amount: 23.5,
          deliveryFeeAmount: 2.99,
          currency: 'EUR',
          notes: null,
          preparationTimeMinutes: 15,
        },
      });
      if (!res.body?.accepted)
        throw new FuzzError(
          `the demo platform account refused a delivery at the demo branch (${res.body?.rejectionReason}): run the demo seed again`,
        );
      return res.body.providerDeliveryId;
    };
    const report = (id, body) =>
      expectCall(providerUrl, ops, 'POST', `${account}/deliveries/${id}/events`, [200], { body });
    const driver = { eventType: 'driver.assigned', driverName: 'Fuzz Driver', driverPhone: '+49 170 1234567' };
    const pickedUp = [driver, { eventType: 'delivery.picked_up' }];
    const delivery = async (steps) => {
      const id = await create();
      for (const step of steps) await report(id, step);
      return id;
    };
    const accepted = await delivery([]);
    const assigned = await delivery([driver]);
    const delivered = await delivery([...pickedUp, { eventType: 'delivery.delivered' }]);
    // Picked up: one for cancel (with the driver: after_pickup confirms, before_pickup is refused),
    // two for return, which runs after cancel (apart, so a cancelled one does not leave return
    // nothing to accept).
    const forCancel = await delivery(pickedUp);
    const forReturn = [await delivery(pickedUp), await delivery(pickedUp)];
    const deliveries = [accepted, assigned, delivered, forCancel, ...forReturn];
    say(
      `provider data: account ${accountId} (rate limit ${before} a minute, ${PROVIDER_FUZZ_RATE_LIMIT} during the run), ${deliveries.length} deliveries: provider_accepted, driver_assigned, delivered, 3 picked_up`,
    );
    return {
      deliveries,
      cancellable: [accepted, assigned, delivered, forCancel],
      returnable: [...forReturn, accepted, delivered],
      createPins: {
        'body.pickupLat': pickup.pickupLat,
        'body.pickupLng': pickup.pickupLng,
        'body.dropoffLat': dropoff.dropoffLat,
        'body.dropoffLng': dropoff.dropoffLng,
        // Money with two decimals at most (more is 422, a rule the schema leaves to the service):
        // random floats would make nearly every create a 422 and leave the stateful phase nothing.
        'body.amount': 23.5,
        'body.deliveryFeeAmount': 2.99,
      },
      restore,
    };
  } catch (error) {
    await restore();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Schemathesis' configuration per target (schemathesis.toml)
// ---------------------------------------------------------------------------------------------

/** A TOML inline value (strings as JSON strings: TOML basic strings take the same escapes). */
function tomlValue(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)} = ${tomlValue(v)}`)
      .join(', ')} }`;
  throw new Error(`no TOML form for ${value}`); // TOML has no null: leave such a field generated
}

/** A schemathesis.toml: top-level values (inline), then `[tables]`, then `[[operations]]`. */
function toToml(config) {
  const { operations = [], dictionaries, ...values } = config;
  const lines = Object.entries(values).map(([key, value]) => `${key} = ${tomlValue(value)}`);
  if (dictionaries)
    lines.push(
      '',
      '[dictionaries]',
      ...Object.entries(dictionaries).map(([k, v]) => `${JSON.stringify(k)} = ${tomlValue(v)}`),
    );
  for (const operation of operations)
    lines.push('', '[[operations]]', ...Object.entries(operation).map(([k, v]) => `${k} = ${tomlValue(v)}`));
  return `${lines.join('\n')}\n`;
}

const realIds = (dictionary) => ({ dictionary, probability: REAL_ID_PROBABILITY });

/**
 * The schemathesis.toml of one target: the Authorization header from the environment, the demo
 * data's ids as dictionaries bound to the id parameters, the order pins. Holds no secret.
 */
function configFor(name, demo) {
  const target = TARGETS[name];
  const config = {};
  if (target.credential) config.headers = { Authorization: `\${${AUTH_ENV}}` };
  if (exclusionsOf(name).some((e) => e.beyondSchema)) config.hooks = HOOKS_FILE;
  if (!demo || !needsDemo(name)) return config;
  const dictionaries = {};
  const dictionary = (key, values) => {
    if (values.length === 0) return undefined;
    dictionaries[key] = { values: [...new Set(values)] };
    return realIds(key);
  };
  const operations = [];
  /** Binds parameters (location.name) of the operations whose path matches `pathRegex` to dictionaries. */
  const bind = (pathRegex, parameters) => {
    const bound = Object.fromEntries(Object.entries(parameters).filter(([, v]) => v !== undefined));
    if (Object.keys(bound).length > 0) operations.push({ 'include-path-regex': pathRegex, parameters: bound });
  };
  const orders = dictionary('orders', demo.orders);
  switch (name) {
    case 'partner-orders':
      // First: of several entries matching an operation, the first one's `parameters` apply.
      operations.push({ 'include-name': 'POST /api/partner/v1/orders', parameters: demo.orderPins });
      bind('^/api/partner/v1/', {
        'path.branchId': dictionary('branches', demo.branches),
        'path.productId': dictionary('products', demo.products),
        'path.orderId': orders,
      });
      break;
    case 'partner-delivery':
      bind('^/api/partner/v1/', {
        'path.orderId': dictionary('deliveryOrders', [...demo.deliveryOrders.held, ...demo.deliveryOrders.notHeld]),
      });
      break;
    case 'tenant-deliveries': {
      // The demo order (assigned by nobody yet) and those the partner-delivery run acted on.
      const assignable = dictionary('assignableOrders', [
        ...demo.orders,
        ...demo.deliveryOrders.held,
        ...demo.deliveryOrders.notHeld,
      ]);
      // Assign first: of the entries matching an operation only the first one's parameters apply.
      bind('^/api/tenant/v1/deliveries/[^/]+/assign$', {
        'path.orderId': assignable,
        'body.installationId': dictionary('installations', demo.installations),
      });
      bind('^/api/tenant/v1/deliveries/', { 'path.orderId': assignable });
      break;
    }
    case 'tenant-orders':
      bind('^/api/tenant/v1/orders/', { 'path.id': orders });
      bind('^/api/tenant/v1/delivery-zones/', { 'path.id': dictionary('zones', demo.zones) });
      bind('^/api/tenant/v1/(delivery-zones|promotions)$', { 'body.branchId': dictionary('branches', demo.branches) });
      break;
    case 'tenant-webhooks':
      bind('^/api/tenant/v1/webhooks/installations/', {
        'path.installationId': dictionary('installations', demo.installations),
      });
      bind('^/api/tenant/v1/webhooks/deliveries/', { 'path.deliveryId': dictionary('deliveries', demo.deliveries) });
      break;
    case 'tenant-catalog':
      bind('^/api/tenant/v1/catalog/branches/', { 'path.id': dictionary('branches', demo.branches) });
      bind('^/api/tenant/v1/catalog/products/', { 'path.id': dictionary('products', demo.products) });
      break;
    case 'provider':
      // Create first: of several entries matching an operation, the first one's `parameters` apply.
      operations.push({ 'include-name': 'POST /deliveries', parameters: demo.provider.createPins });
      bind('/cancel$', { 'path.providerDeliveryId': dictionary('cancellable', demo.provider.cancellable) });
      bind('/return$', { 'path.providerDeliveryId': dictionary('returnable', demo.provider.returnable) });
      bind('^/deliveries/', { 'path.providerDeliveryId': dictionary('providerDeliveries', demo.provider.deliveries) });
      break;
    case 'tenant':
      bind('^/api/tenant/v1/installations/', {
        'path.installationId': dictionary('installations', demo.installations),
      });
      bind('^/api/tenant/v1/installations$', { 'body.appId': dictionary('apps', demo.apps) });
      break;
    default:
      break;
  }
  if (Object.keys(dictionaries).length > 0) config.dictionaries = dictionaries;
  if (operations.length > 0) config.operations = operations;
  return config;
}

// ---------------------------------------------------------------------------------------------
// Schemathesis: install once, run per target
// ---------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** An exclusive lock file holding our pid; a lock of a process that is gone is taken over. */
async function withInstallLock(fn) {
  const lock = `${VENV_DIR}.lock`;
  const deadline = Date.now() + INSTALL_LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      writeFileSync(lock, String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lock, 'utf8').trim());
      if (holder && !isAlive(holder)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new FuzzError(
          `another process (pid ${holder || '?'}) has been installing schemathesis for too long; if it is gone, remove ${lock}`,
        );
      if (!announced) say(`waiting for another run (pid ${holder || '?'}) installing schemathesis`);
      announced = true;
      await sleep(1_000);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}

/** A command's result with a timeout; output to the terminal. */
function runStep(command, args, timeoutMs, what) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  if (result.error?.code === 'ETIMEDOUT') throw new FuzzError(`${what}: no result within ${timeoutMs / 1000} s`);
  if (result.error) throw new FuzzError(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new FuzzError(`${what} failed (exit ${result.status ?? result.signal})`);
}

function checkPython() {
  const probe = spawnSync(
    'python3',
    ['-c', 'import sys; print("%d.%d" % sys.version_info[:2]); import venv, ensurepip'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (probe.error?.code === 'ENOENT')
    throw new FuzzError(
      `python3 not found on PATH: install Python ${MIN_PYTHON.join('.')} or newer (schemathesis runs from a virtualenv)`,
    );
  if (probe.error) throw new FuzzError(`python3: ${probe.error.message}`);
  const [major, minor] = (probe.stdout.trim().split('\n')[0] ?? '').split('.').map(Number);
  if (!(major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]))) {
    throw new FuzzError(
      `schemathesis ${SCHEMATHESIS_VERSION} needs Python ${MIN_PYTHON.join('.')} or newer; python3 is ${probe.stdout.trim() || 'unusable'}${probe.stderr ? ` (${probe.stderr.trim().split('\n').pop()})` : ''}`,
    );
  }
  if (probe.status !== 0)
    throw new FuzzError('python3 has no working venv module (on Debian/Ubuntu: apt-get install python3-venv)');
}

async function ensureSchemathesis() {
  if (existsSync(VENV_MARKER)) return;
  mkdirSync(CACHE_ROOT, { recursive: true });
  await withInstallLock(async () => {
    if (existsSync(VENV_MARKER)) return; // another run finished it while we waited
    checkPython();
    say(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${VENV_DIR} (once)`);
    rmSync(VENV_DIR, { recursive: true, force: true }); // what a failed install left
    try {
      runStep('python3', ['-m', 'venv', VENV_DIR], VENV_TIMEOUT_MS, 'python3 -m venv');
      runStep(
        join(VENV_DIR, 'bin', 'python'),
        ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`],
        PIP_TIMEOUT_MS,
        `pip install schemathesis==${SCHEMATHESIS_VERSION}`,
      );
      const version = spawnSync(SCHEMATHESIS, ['--version'], { encoding: 'utf8', timeout: 60_000 });
      if (!version.stdout?.includes(SCHEMATHESIS_VERSION))
        throw new FuzzError(
          `the installed schemathesis does not run: ${(version.stderr || version.stdout || version.error?.message || '').trim()}`,
        );
      writeFileSync(VENV_MARKER, `${SCHEMATHESIS_VERSION}\n`);
    } catch (error) {
      rmSync(VENV_DIR, { recursive: true, force: true });
      throw error;
    }
  });
}

// Shapes of the platform's secrets (as shared/testing/src/secret-patterns.ts), masked in
// schemathesis' output besides the exact keys and tokens of this run.
const SECRET_SHAPES = [
  /(mpk|pdk)_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{20,}/g,
  /(p?whsec)_[A-Za-z0-9+/_-]{20,}={0,2}/g, // base64url, or standard base64 for `whsec_` since Standard Webhooks
  /(v1\.)?eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/g,
  /(?<=(ApiKey|Bearer) )[A-Za-z0-9_.-]{20,}/g,
];

function masker(secrets) {
  const exact = secrets.filter((s) => typeof s === 'string' && s.length >= 8);
  return (line) => {
    let out = line;
    for (const secret of exact) out = out.split(secret).join('[Filtered]');
    for (const shape of SECRET_SHAPES) out = out.replace(shape, '[Filtered]');
    return out;
  };
}

let interrupted = false;
let current; // the running schemathesis child
for (const signal of ['SIGINT', 'SIGTERM']) {
  // Ctrl-C reaches schemathesis too (same process group); wait for it, then stop.
  process.on(signal, () => {
    interrupted = true;
    if (signal === 'SIGTERM') current?.kill('SIGTERM');
  });
}

/** One schemathesis run; its output, masked, streams to ours. */
function runSchemathesis(args, authorization, mask, timeoutMs) {
  return new Promise((resolve) => {
    mkdirSync(RUN_DIR, { recursive: true });
    // PYTHONDONTWRITEBYTECODE: no __pycache__ beside scripts/fuzz/hooks.py in the repository.
    const env = {
      ...process.env,
      HYPOTHESIS_STORAGE_DIRECTORY: join(RUN_DIR, '.hypothesis'),
      PYTHONDONTWRITEBYTECODE: '1',
    };
    if (authorization) env[AUTH_ENV] = authorization;
    else delete env[AUTH_ENV];
    env.MARKETPLACE_FUZZ_BEYOND_SCHEMA_ERRORS = JSON.stringify(BEYOND_SCHEMA_ERRORS);
    env.MARKETPLACE_FUZZ_BEYOND_SCHEMA_CODES = JSON.stringify(BEYOND_SCHEMA_CODES);
    const child = spawn(SCHEMATHESIS, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // What schemathesis (.schemathesis/: crash files) and Hypothesis (the examples database, which
      // replays earlier failures first) keep between runs lives in the cache, not in the repository.
      cwd: RUN_DIR,
      env,
    });
    current = child;
    const streams = [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ].map(
      ([from, to]) =>
        new Promise((done) =>
          createInterface({ input: from, crlfDelay: Infinity })
            .on('line', (line) => to.write(`${mask(line)}\n`))
            .on('close', done),
        ),
    );
    let timedOut = false;
    let kill;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, error: error.message });
    });
    child.on('exit', async (code, signal) => {
      clearTimeout(timer);
      clearTimeout(kill);
      current = undefined;
      await Promise.all(streams);
      resolve({ code, signal, timedOut });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.installOnly) {
    await ensureSchemathesis();
    say(`schemathesis ${SCHEMATHESIS_VERSION} is installed in ${VENV_DIR}`);
    return 0;
  }
  const { gatewayUrl, targets, maxExamples, seed, seedGiven, timeoutMs, extra } = options;
  const fuzzProvider = targets.includes('provider');

  if (targets.some((name) => TARGETS[name].service !== 'provider')) await checkReachable(gatewayUrl);
  const demoTargets = targets.filter(needsDemo);
  const { fixture, path: fixturePath } = demoTargets.length > 0 ? readFixture(options.fixtureFile) : {};
  let providerUrl;
  if (fuzzProvider) {
    if (!fixture.provider?.apiKey || !fixture.provider?.accountId || !fixture.provider?.baseUrl)
      throw new FuzzError(
        `${fixturePath} has no \`provider\` (the demo platform account): run the demo seed again, with provider-delivery running`,
      );
    providerUrl = options.providerUrl ?? serviceBase('--provider', fixture.provider.baseUrl.replace(/\/v1\/?$/, ''));
    await checkReachable(providerUrl, PROVIDER);
  }
  await ensureSchemathesis();

  // Credentials outlive every run (plus a margin); they are never printed.
  const lifetimeMs = targets.length * (timeoutMs + KILL_GRACE_MS) + 5 * 60_000;
  const credentials = {};
  if (targets.some((name) => TARGETS[name].credential === 'admin'))
    credentials.admin = `Bearer ${adminToken(lifetimeMs)}`;
  if (fixture) {
    credentials.tenant = `Bearer ${fixture.tenantApi.token}`;
    credentials.orderSource = `ApiKey ${fixture.installations.orderSource.apiKey}`;
    credentials.deliveryProvider = `ApiKey ${fixture.installations.deliveryProvider.apiKey}`;
    if (fixture.provider?.apiKey) credentials.platform = `Bearer ${fixture.provider.apiKey}`;
  }
  // provider-delivery's administrator token: the provider target's deliveries and rate limit.
  const opsToken = fuzzProvider ? adminToken(lifetimeMs, PROVIDER_ADMIN) : undefined;
  const mask = masker([
    ...Object.values(credentials).flatMap((value) => [value, value.split(' ')[1]]),
    opsToken,
    fixture?.provider?.webhookSecret,
  ]);
  const origins = { gateway: gatewayUrl, provider: providerUrl };
  await checkDocuments(origins, targets, credentials);
  const demo = fixture ? await demoData(gatewayUrl, targets, fixture, fixturePath, credentials) : undefined;
  if (fuzzProvider) demo.provider = await providerData(providerUrl, fixture, fixturePath, credentials, opsToken);
  try {
    return await runTargets({ ...options, origins, demo, mask, credentials });
  } finally {
    await demo?.provider?.restore();
  }
}

/** Runs schemathesis per target, then prints the summary; the exit code. */
async function runTargets({
  targets,
  maxExamples,
  seed,
  seedGiven,
  timeoutMs,
  extra,
  origins,
  demo,
  mask,
  credentials,
}) {
  const results = [];
  for (const name of targets) {
    if (interrupted) break;
    const target = TARGETS[name];
    const configFile = join(RUN_DIR, `${name}.${process.pid}.toml`);
    mkdirSync(RUN_DIR, { recursive: true });
    writeFileSync(configFile, toToml(configFor(name, demo)));
    const excludeChecks = [...new Set(exclusionsOf(name).flatMap((e) => e.excludeChecks))];
    const origin = originOf(name, origins);
    const args = [
      '--config-file',
      configFile,
      'run',
      `${origin}${target.document}`,
      '--url',
      `${origin}${target.basePath ?? ''}`,
      '--checks',
      'all',
      ...(excludeChecks.length ? ['--exclude-checks', excludeChecks.join(',')] : []),
      '--max-examples',
      String(maxExamples),
      ...(target.pathRegex ? ['--include-path-regex', target.pathRegex] : []),
      '--seed',
      String(seed),
      '--request-timeout',
      String(REQUEST_TIMEOUT_S),
      '--generation-database',
      seedGiven ? 'none' : join(RUN_DIR, '.hypothesis', 'examples'),
      '--no-color',
      ...extra,
    ];
    console.log(`\n=== fuzz:api ${name}: schemathesis ${args.join(' ')}`);
    console.log(`(${configFile}:)\n${readFileSync(configFile, 'utf8')}`);
    const started = Date.now();
    const result = await runSchemathesis(args, credentials[target.credential], mask, timeoutMs);
    rmSync(configFile, { force: true });
    results.push({ name, ...result, seconds: Math.round((Date.now() - started) / 1000) });
  }

  console.log('\n=== fuzz:api summary');
  console.log(
    `gateway ${origins.gateway}${origins.provider ? `, provider-delivery ${origins.provider}` : ''}, ${maxExamples} examples per operation, seed ${seed}${seedGiven ? '' : ' (random; rerun with --seed ' + seed + ')'}`,
  );
  for (const r of results) {
    const outcome =
      r.code === 0
        ? 'passed'
        : r.error
          ? `FAILED (could not run schemathesis: ${r.error})`
          : r.timedOut
            ? `FAILED (stopped after --timeout-minutes ${timeoutMs / 60_000})`
            : `FAILED (exit ${r.code ?? r.signal})`;
    console.log(`  ${r.name.padEnd(17)} ${outcome}  ${r.seconds} s`);
  }
  for (const name of targets.filter((n) => !results.some((r) => r.name === n)))
    console.log(`  ${name.padEnd(17)} not run (interrupted)`);
  const excluded = EXCLUSIONS.filter((e) => e.targets.some((name) => targets.includes(name)));
  if (excluded.length > 0) {
    console.log('Excluded on purpose:');
    for (const e of excluded) console.log(`  - ${e.text}`);
  }
  const ok = !interrupted && results.length === targets.length && results.every((r) => r.code === 0);
  if (interrupted) console.log('interrupted');
  else if (ok) console.log('all targets passed');
  else
    console.log(
      `some targets failed: see the schemathesis output above (a curl command per failure, with credentials shown as [Filtered]; rerun with --seed ${seed})`,
    );
  return interrupted ? 130 : ok ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof FuzzError) {
    console.error(`fuzz:api: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(`fuzz:api: unexpected error: ${error?.stack ?? error}`);
    process.exitCode = 1;
  }
}
