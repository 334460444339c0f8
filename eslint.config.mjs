// ESLint with typescript-eslint's type-aware rules, over every TypeScript file of the workspace.
// Formatting is Prettier's (`npm run format`), so the stylistic rules are off (eslint-config-prettier).
// Rules turned off or down below say why.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.stack/**',
      '.test-results/**',
      'shared/contracts/src/generated/**',
      'kits/clients/src/generated/**',
      'test/boundaries/fixtures/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.tests.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Unused names are a compile error already (noUnusedLocals, noUnusedParameters); `_name` marks one kept on purpose.
      // Destructuring a field away to keep the rest (`{ _id, ...fields }`) is how a field is dropped.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // An async function that implements a Promise-returning interface needs no await; the rule would
      // ask for Promise.resolve() noise instead.
      '@typescript-eslint/require-await': 'off',
      // A timer read in a closure before it is set (cleared on an early finish) must stay `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A promise nobody awaits loses its error: the one bug class worth catching everywhere.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  {
    // A function that does several stages at once is split into named stages: none in src/ is over
    // 60 lines (blank lines and comments not counted). A function that is data (an API document, a
    // table) says so where it is declared: `// eslint-disable-next-line max-lines-per-function -- data`.
    files: ['services/*/src/**/*.ts', 'shared/*/src/**/*.ts', 'kits/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // Tests read untyped JSON bodies (`res.body.x`) on purpose: the assertions are the type check.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'shared/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests load a module by a computed path now and then (each service's definition).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  prettier,
);
