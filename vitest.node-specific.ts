/**
 * The tests `.ci/run` runs again on each supported Node (24 and 26) after the whole suite has run
 * on the machine's: those whose outcome can differ by Node. Not a list kept by hand: a file is in
 * by its own imports, so a new test is in as soon as it is written.
 *
 * - By rule: a test file that itself uses Node's processes, sockets, HTTP, TLS, streams or
 *   compression (node:child_process, node:net, node:http, …) or starts a process or a redis-server
 *   through the tests' helpers (processes.ts, redis-server.ts): these are where Node's behaviour
 *   meets ours. The rest run the same JavaScript over the same libraries on any Node; they run once.
 * - By subject, named below with the reason: tests of how the mock's HTTP edge reads and writes
 *   bytes that reach it through the in-process helpers (fetch), which the rule cannot see.
 *   Node 26's `read()` once cut every buffered JSON body past 64 KiB: buffered-bodies catches that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What marks a test file as Node-specific by rule. */
export const NODE_IO = /from ['"]node:(child_process|net|http|https|http2|tls|dgram|stream|stream\/promises|zlib|worker_threads)['"]|from ['"][^'"]*\/(processes|redis-server)\.js['"]/;

/** Node-specific by subject (paths from the repository's root), each with why. */
export const NODE_SPECIFIC_BY_SUBJECT: Readonly<Record<string, string>> = {
  'mocks/test/buffered-bodies.test.ts': "a body past one socket read taken whole from the request's buffer (Node 26's read() cut it at 64 KiB)",
  'mocks/test/connection-order.test.ts': 'answers written in the order their requests came on one connection (pipelining, raw sockets through a helper)',
  'mocks/test/json-limits.test.ts': "the parser's limits (nesting depth against V8's stack), worded as the client's problem",
};

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git']);

/** Every *.test.ts under `root`, relative, with '/' between parts. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      } else if (entry.name.endsWith('.test.ts')) found.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  return found.sort();
}

/** The Node-specific test files under `root`: by rule, then by subject. */
export function nodeSpecificFiles(root: string): string[] {
  const byRule = testFiles(root).filter((file) => NODE_IO.test(readFileSync(join(root, file), 'utf8')));
  return [...new Set([...byRule, ...Object.keys(NODE_SPECIFIC_BY_SUBJECT)])].sort();
}
