// The linter `npm run lint` runs (and `npm test` before the tests): typescript-eslint with the
// rules that need the type checker; formatting is prettier's (`npm run format`), not the linter's.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output, dependencies, generated types and validators; the inspector's browser scripts are checked by tsc (tsconfig.inspector.json).
    ignores: [
      'dist/**',
      '**/node_modules/**',
      'openapi/plant-store.gen.ts',
      'openapi/schema/meta-schema.gen.ts',
      'fixtures/fixture-file.gen.ts',
      'mocks/admin/inspector/**',
      'examples/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      // tsconfig.test.json holds every TypeScript file: the sources and their tests.
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-explicit-any': 'off',
      // Control characters in patterns are this code's subject (terminal-safe text, hostile bytes).
      'no-control-regex': 'off',
      // A variable declared early for closures and set once later cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  prettier,
);
