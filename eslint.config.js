// One lint configuration for the whole repository. Type-aware rules catch the
// incidents that matter in a Fastify service: a promise nobody awaits loses its
// error and can answer a request twice.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/coverage/**', '**/.turbo/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false } },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Only server.ts and the start scripts may read the environment (docs/design.md §5.1).
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through loadConfig(); only server.ts reads process.env.',
        },
      ],
    },
  },
  {
    files: [
      '**/server.ts',
      'scripts/**',
      '**/main.ts',
      '**/*.test.ts',
      '**/test-support/**',
      '**/vitest.config.ts',
      'packages/testing/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read JSON bodies, which are `any` by nature; the assertions check their shape.
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
