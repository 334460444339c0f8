// House rules on imports, checked by dependency-cruiser: `npm run lint:boundaries` (it prints each
// violation with its rule's comment and exits non-zero on any). test/boundaries/boundaries.test.ts
// runs these rules over broken and clean fixture trees (test/boundaries/fixtures/*) and over the
// real tree. docs/architecture.md has the same rules as a table.
//
// Paths are relative to the directory depcruise runs in (the repository root). `@marketplace/<x>`
// resolves to shared/<x>/src through tsconfig.tests.json's `paths` (as in jest and the type
// check), so a rule sees the shared package's source, not its dist. Type-only imports count:
// `import type { Context } from 'koa'` ties a module to koa as much as a value import does.
//
// Who may import what:
//   services/<s>/src/domain/      its own domain/, @marketplace/errors, money, contracts, and the
//                                 computation-only node built-ins below; nothing else
//   services/<s>/src/http/,       use cases, domain, shared packages; not adapters/ (the
//   services/<s>/src/consumers/   composition root, service.ts, hands them what they need)
//   services/<s>/src/ (the rest)  anything of its own service and of shared/ (but provider-delivery's
//                                 simulator/: domain and shared only, the courier API over HTTP)
//   services/<s>/test/            its own service, shared/ (@marketplace/testing for fixtures)
//   shared/<p>/                   other shared packages; never services/ or the root test/
//   test/ (root)                  shared/ only: services run as processes, never imported
//   kits/<k>/src/                 its own files, node built-ins and the npm packages its own package.json
//                                 lists under `dependencies` (published, run outside the repository)

// Node built-ins a domain module may use: pure computation, no I/O, no clock, no timers.
// `crypto` (hashes, HMACs, random ids) and `zlib` (gzipSync of a rendered body) are used today.
// Not `net`: its isIP is pure, but the module is sockets (and the address rules live in
// @marketplace/http, outside the domain). Not `dns`, `fs`, `http(s)`, `child_process`, `os`,
// `timers`, `worker_threads`, ...: a domain function gets resolved addresses, file contents or
// the time as arguments.
const DOMAIN_BUILTINS = ['crypto', 'zlib', 'buffer', 'util', 'url', 'string_decoder'];

// Shared packages without runtime dependencies. Every other one loads a framework or driver:
// http (koa, prom-client), events (kafkajs), store (mongodb), redis (ioredis), outbox, runtime,
// tracing (@opentelemetry), logging (pino), identity (koa), config, testing.
const PURE_SHARED = ['errors', 'money', 'geo', 'contracts'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'services/*/src/domain/ holds rules and calculations without I/O, unit-tested without a stack: it may import its own ' +
        'domain files, @marketplace/errors, @marketplace/money, @marketplace/contracts and the computation-only node built-ins ' +
        `(${DOMAIN_BUILTINS.join(', ')}). No framework or driver (koa, mongodb, kafkajs, ioredis, prom-client, pino, ` +
        '@opentelemetry/*, ajv, undici, ...), not even type-only; no shared package that loads one (@marketplace/http, events, ' +
        "store, ...); nothing of the service's http/, consumers/, usecases/, adapters/, service.ts or config.ts. " +
        'Give the domain plain data (define the shape it needs) and let a use case do the I/O.',
      from: { path: '^services/([^/]+)/src/domain/' },
      to: {
        pathNot: [
          '^services/$1/src/domain/',
          `^shared/(${PURE_SHARED.join('|')})/src/`,
          `^(node:)?(${DOMAIN_BUILTINS.join('|')})$`,
        ],
      },
    },
    {
      name: 'no-cross-service',
      severity: 'error',
      comment:
        "A service never imports another service's code, source or tests: services share only schemas/ and shared/ " +
        '(each deploys and changes alone). Test fixtures used by more than one service live in shared/testing ' +
        '(@marketplace/testing: startGateway, connectedApp, partnerCall, the test menu, ...).',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'root-tests-black-box',
      severity: 'error',
      comment:
        'The root test/ tests the services together, as processes (startServiceProcess, startGateway): it imports shared/ ' +
        '(@marketplace/testing above all), never a file under services/ (source or test support).',
      from: { path: '^test/' },
      to: { path: '^services/' },
    },
    {
      name: 'shared-is-shared',
      severity: 'error',
      comment:
        'shared/ is what services build on: a shared package never imports a service (nor the root tests or scripts). ' +
        'If a shared package needs something a service has, move it into shared/.',
      from: { path: '^shared/' },
      to: { path: '^(services|test|scripts)/' },
    },
    {
      name: 'entry-layers',
      severity: 'error',
      comment:
        'http/ routes and Kafka consumers/ parse, call a use case and map the result: they do not reach adapters/ ' +
        '(repositories, outbound clients), not even for a type. Route the call through a use case, and give the use case ' +
        'the interface it needs (a port, in usecases/), which the adapter implements; service.ts wires the adapter in.',
      from: { path: '^services/([^/]+)/src/(http|consumers)/' },
      to: { path: '^services/$1/src/adapters/' },
    },
    {
      name: 'usecases-through-ports',
      severity: 'error',
      comment:
        'A use case (usecases/) receives its ports (repositories, publisher, clock, outbound clients) through the ' +
        "service's context: it imports no value from adapters/ (a collection name, a repository class, an outbound " +
        'call), so it can be run in a unit test with in-memory fakes. Type-only imports of a port the adapter ' +
        'implements are allowed; a type that belongs to the use case lives in usecases/ or domain/.',
      from: { path: '^services/([^/]+)/src/usecases/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/$1/src/adapters/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'simulator-is-a-client',
      severity: 'error',
      comment:
        "provider-delivery's courier simulator drives its drivers through the courier API over HTTP, as a driver " +
        'app would: it reads the domain rules (speed model) but never the use cases, repositories or routes, so ' +
        'a simulated delivery takes no path a real one does not.',
      from: { path: '^services/provider-delivery/src/simulator/' },
      to: { path: '^services/provider-delivery/src/(usecases|adapters|http|consumers)/' },
    },
    {
      name: 'kit-stands-alone',
      severity: 'error',
      comment:
        'kits/<k>/src is published and run outside this repository (npx sdp-conformance): it imports its own files, ' +
        "Node's built-ins and the runtime dependencies its own package.json declares (kits/clients: openapi-fetch, which " +
        'its clients run on), never a shared package, a service or an npm package it does not declare as a dependency ' +
        '(a devDependency, or one of the root package.json, is not there where the kit is installed). Its tests ' +
        '(kits/<k>/test) may use @marketplace/testing to start our services.',
      from: { path: '^kits/([^/]+)/src/' },
      // `npm`: listed under `dependencies` of the package.json closest to the importing file, the kit's own.
      to: { pathNot: ['^kits/$1/src/', '^(node:)?[a-z_]+$'], dependencyTypesNot: ['core', 'npm'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles within a service or a shared package, type-only ones included (a type cycle turns into a runtime ' +
        'one with the first value import, and either way the modules can no longer be understood alone). Break it by ' +
        'moving what both need into a module of its own.',
      from: { path: '^(services|shared|kits)/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'Every import resolves to a file or an installed package (a typo, a moved file or a package missing from ' +
        'package.json fails here before it fails at run time).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Build output and packages are not cruised, but imports into them are still seen (a test
    // importing services/x/dist breaks no-cross-service as much as one importing src). The
    // directories to cruise are given on the command line (package.json, lint:boundaries):
    // services/*/{src,test}, shared/*/{src,test} and test/. Not scripts/: Node tools that start
    // the services as processes, or load their built dist/ by computed paths, which no static
    // analysis sees (nor test/services/definitions.test.ts's require of each src/service).
    doNotFollow: { path: ['node_modules', '/dist/'] },
    // The rules' own test fixtures break the rules on purpose; they are cruised on their own.
    exclude: { path: '^test/boundaries/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.tests.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
