/**
 * The flags node runs the mock with: `npm start`, the image's entrypoint (sandbox/entrypoint.sh)
 * and the bench all pass these, and a test keeps the three in step (mocks/test/node-flags.test.ts).
 *
 * `--no-memory-reducer`: once a process has been idle for a while after load, V8's memory reducer
 * shrinks its heap and its allocation limits, and when load comes back the mock is markedly slower
 * until the heap has grown again. A sandbox goes idle and busy again all day; keeping the heap it
 * grew costs an idle mock some memory, which it gives back when it exits.
 *
 * `--max-semi-space-size=24` (MiB): V8's young generation at most 24 MiB a half. Node 24's V8 lets
 * it grow much larger on a machine with memory to spare, and a mock holding many records then
 * carries a young generation near the size of its records, past the goal of RSS per record.
 * Node 20's smaller cap costs lists a share of their req/s; this one costs them less than runs vary.
 *
 * The figures behind both: docs/benchmarks.md, "Figures behind the code".
 */
export const MOCK_NODE_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=24'];

/**
 * What they run, relative to the package: the start bundle (sandbox/bundle.ts, built by
 * `npm run build`) of dist/mocks/cli.js.
 */
export const MOCK_START = 'dist/start/cli.js';
