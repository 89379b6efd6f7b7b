// ESLint (correctness) with typescript-eslint; formatting is Prettier's alone (eslint-config-prettier turns
// off every rule that would disagree with it). Chosen over Biome because Biome ships its binary as
// platform packages the project's registry mirror does not hold; ESLint and Prettier are plain JavaScript.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'snapshot/',
      '.local/',
      '.vercel/',
      'coverage/',
      'dist/',
      // scripts/compile.mjs's folders of a moment, which npm test's lint may meet while the tests compile.
      'dist.tmp-*/',
      'dist.old-*/',
      'public/vocabulary.js',
      'public/js/config-check.js',
      'public/js/jsonc-parser.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // The site: browser ES modules, plain JavaScript with JSDoc types.
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
