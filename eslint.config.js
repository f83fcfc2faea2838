import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** Everything above the file-system and process primitives, which import only types and errors. */
const ABOVE_PRIMITIVES = [
  '**/git/**',
  '**/store/**',
  '**/snapshotter/**',
  '**/checkpoints/**',
  '**/cli/**',
  '**/sharing/**',
  '**/report/**',
  '**/gates/**',
  '**/hooks/**',
  '**/demo/**',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'coverage/**', 'action/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  // Layers point one way: cli -> snapshotter/checkpoints -> store -> git/fs -> types.
  // Only src/git spawns git, only the CLI prints or exits.
  {
    files: ['src/**/*.ts', 'types/**/*.ts'],
    ignores: ['src/git/**', 'src/cli/**', 'src/process/**'],
    rules: {
      ...restrict([
        { group: ['simple-git', 'node:child_process', 'child_process'], message: 'Only src/git runs git.' },
        { group: ['**/cli/**'], message: 'Nothing depends on the CLI.' },
      ]),
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only the CLI exits.' },
      ],
    },
  },
  {
    files: ['src/git/**/*.ts'],
    rules: {
      ...restrict([
        {
          group: ['**/store/**', '**/snapshotter/**', '**/checkpoints/**', '**/cli/**', '**/gates/**'],
          message: 'src/git depends only on types and errors.',
        },
      ]),
      'no-console': 'error',
    },
  },
  {
    // File-system primitives (atomic write, lock, git-lock recovery, temp sweeping, path bytes).
    files: ['src/fs/**/*.ts'],
    rules: restrict([
      { group: ['simple-git', 'node:child_process', 'child_process'], message: 'Only src/git runs git.' },
      {
        group: ABOVE_PRIMITIVES,
        message: 'src/fs depends only on types and errors.',
      },
    ]),
  },
  {
    // The user's own commands (a gate's check, the agent under `iterate`) start here and nowhere else.
    files: ['src/process/**/*.ts'],
    rules: {
      ...restrict([
        { group: ['simple-git'], message: 'Only src/git runs git.' },
        {
          group: ABOVE_PRIMITIVES,
          message: 'src/process depends only on types and errors.',
        },
      ]),
      'no-console': 'error',
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: restrict([
      { group: ['simple-git', 'node:child_process', 'child_process'], message: 'Only src/git runs git.' },
      {
        group: ['**/snapshotter/**', '**/checkpoints/**', '**/cli/**', '**/gates/**'],
        message: 'The store sits below the services.',
      },
    ]),
  },
  {
    files: ['types/**/*.ts'],
    rules: restrict([{ group: ['**/src/**'], message: 'types/ is the bottom layer.' }]),
  },
);
