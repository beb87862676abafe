// Lint for every package (`npm run lint`, also part of `npm test`): typescript-eslint's recommended
// rules and Nx's module boundaries, which hold the layering of docs/architecture.md:
//   core      → nothing of ours
//   storage   → core only (database plumbing: dialects, pool, migrations runner)
//   engine    → core, storage
//   adapters  → core only (never another adapter, never storage)
//   gateway   → core, storage, engine, adapters
//   tools     → anything
// Formatting: prettier (.prettierrc), checked by `npm run lint`, applied by `npm run format`.
import nx from '@nx/eslint-plugin';
import prettierCompatible from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.nx/**',
      'tools/.generated-test/**',
      'tools/src/generators/adapter/files/**',
      'coverage/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs'],
    rules: {
      // Kysely's untyped database handles (`Kysely<any>`) are deliberate where one store serves two dialects.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The packages' code and scenario tests (not their vitest.config.ts, which re-exports the root's shared settings).
    files: ['*/src/**/*.ts', '*/test/**/*.ts', 'adapters/*/src/**/*.ts', 'engine/bench/**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:core', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:storage', onlyDependOnLibsWithTags: ['type:core'] },
            { sourceTag: 'type:engine', onlyDependOnLibsWithTags: ['type:core', 'type:storage'] },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:core'] },
            { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:engine', 'type:adapter'] },
            {
              sourceTag: 'type:tools',
              onlyDependOnLibsWithTags: ['type:core', 'type:storage', 'type:engine', 'type:adapter', 'type:gateway'],
            },
          ],
        },
      ],
    },
  }, // Formatting is prettier's (`npm run format`): no ESLint rule may disagree with it.
  prettierCompatible,
);
