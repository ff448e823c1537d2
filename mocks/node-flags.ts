/**
 * The flags node runs the mock with: `npm start`, the image's entrypoint (sandbox/entrypoint.sh)
 * and the bench all pass these, and a test keeps the three in step (mocks/test/node-flags.test.ts).
 *
 * `--no-memory-reducer`: once a process has been idle for a while after load, V8's memory reducer
 * shrinks its heap and its allocation limits; when load comes back the mock then ran at 0.57–0.64
 * of the limit for at least ten seconds, against 0.70–0.77 without the reducer
 * (docs/benchmarks.md, "Fifth pass"). A sandbox goes idle and busy again all day; keeping the heap
 * it grew costs an idle mock some memory, which it gives back when it exits.
 *
 * `--max-semi-space-size=24` (MiB): V8's young generation at most 24 MiB a half. Node 24's V8 lets
 * it grow to 64 MiB a half on a machine with memory to spare, and a mock seeded with a million
 * records then held 128 MiB of young generation beside 150 MiB of records: 347 bytes of RSS a
 * record against 282 with the flag (goal 300). Node 20's 16 MiB cost lists 5–10 % of their req/s
 * on Node 24; 24 MiB costs them 2 %, within the spread of runs (docs/benchmarks.md, "Node 24").
 */
export const MOCK_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=24'];

/**
 * What they run, relative to the package: the start bundle (sandbox/bundle.ts, built by
 * `npm run build`) of dist/mocks/cli.js.
 */
export const MOCK_START = 'dist/start/cli.js';
