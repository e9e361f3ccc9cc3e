import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Actors are hidden: outside src/actors, a process is reached through its handle (the registry
  // hands them out); nobody else holds an actor, reads its snapshot or builds its jobs.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/actors/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/actors/(process-connection|job|command-queue|next-job|socket-link|command-log)\\.ts$',
              message:
                "An actor's insides: reach a process through its ProcessHandle (registry.find, registry.processes).",
            },
            {
              group: ['xstate'],
              message: 'Only src/actors makes actors (one per connected process).',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='getSnapshot']",
          message: "An actor's snapshot is its own: ask its ProcessHandle (describe, shown, caps).",
        },
        // Served by node, a header read through hono builds a whole fetch Request, and one set
        // through it an undici Headers that the answer is then made from.
        {
          selector:
            "CallExpression[callee.object.property.name='req'][callee.property.name='header']",
          message: "Read a request's header with requestHeader (src/http/validate.ts): node's own.",
        },
        {
          selector: "CallExpression[callee.object.name='c'][callee.property.name='header']",
          message: "Set an answer's header with setHeader (src/http/json.ts): on node's response.",
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  { files: ['**/*.cjs'], languageOptions: { globals: globals.node, sourceType: 'commonjs' } },
  // The page's modules run in the browser as they are (no build step); tsc checks them (// @ts-check).
  { files: ['src/ui/**/*.js'], languageOptions: { globals: globals.browser } },
  { files: ['bin/**/*.js'], languageOptions: { globals: { process: 'readonly' } } },
)
