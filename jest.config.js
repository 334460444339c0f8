// Five projects:
// - unit: pure logic, no infrastructure (`*.test.ts` beside the code, and `test/` at the root);
// - integration: `*.int.test.ts`, against the real local stack, isolated by random names;
// - fuzz: `*.fuzz.test.ts`, Schemathesis against the services' OpenAPI documents, run alone by
//   scripts/test.mjs after unit and integration;
// - disruptive: `*.disruptive.test.ts`, which stop and restart stack components, so
//   scripts/test.mjs runs them alone, after the others.
// Transpile only: types are checked by `tsc` (npm run typecheck, and before npm test runs).
const tsJest = [
  'ts-jest',
  { tsconfig: { isolatedModules: true, target: 'ES2022', module: 'commonjs', esModuleInterop: true, sourceMap: true } },
];

const common = {
  transform: { '^.+\\.ts$': tsJest },
  // Workspace packages are imported by name; tests run against their TypeScript sources.
  moduleNameMapper: {
    '^@marketplace/([a-z-]+)$': '<rootDir>/shared/$1/src',
    '^sdp-conformance$': '<rootDir>/kits/conformance/src',
    '^marketplace-webhooks$': '<rootDir>/kits/webhooks/src',
    '^marketplace-api-clients$': '<rootDir>/kits/clients/src',
  },
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/.stack/'],
};
const ignored = ['/node_modules/', '/dist/', '/.stack/'];

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: [
        ...ignored,
        '\\.int\\.test\\.ts$',
        '\\.disruptive\\.test\\.ts$',
        '\\.audit\\.test\\.ts$',
        '\\.fuzz\\.test\\.ts$',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/*.int.test.ts'],
      testPathIgnorePatterns: ignored,
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
    },
    {
      // Schemathesis against the OpenAPI documents of a cluster of its own (scripts/fuzz/api.mjs);
      // scripts/test.mjs runs it alone, after unit and integration.
      ...common,
      displayName: 'fuzz',
      testMatch: ['<rootDir>/**/*.fuzz.test.ts'],
      testPathIgnorePatterns: ignored,
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
    },
    {
      ...common,
      displayName: 'disruptive',
      testMatch: ['<rootDir>/**/*.disruptive.test.ts'],
      testPathIgnorePatterns: ignored,
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration.ts'],
    },
    {
      // After everything else: checks what the run left behind (service logs).
      ...common,
      displayName: 'audit',
      testMatch: ['<rootDir>/**/*.audit.test.ts'],
      testPathIgnorePatterns: ignored,
    },
  ],
};
