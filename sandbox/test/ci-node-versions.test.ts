/**
 * `.ci/run` runs the whole suite on the machine's Node, then on each supported Node only the tests
 * whose outcome can differ by Node (vitest.node-specific.ts). The set is found by a rule, so it
 * cannot rot; these keep the rule honest and the named exceptions few and real.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_IO, NODE_SPECIFIC_BY_SUBJECT, nodeSpecificFiles, testFiles } from '../../vitest.node-specific.js';
import nodeVersionsConfig from '../../vitest.node-versions.config.js';
import { REPO_ROOT } from './dockerfile.js';

const nodeSpecific = nodeSpecificFiles(REPO_ROOT);

describe('the Node-specific tests', () => {
  it("take in a test by its own use of Node's processes, sockets, HTTP, streams or the process helpers", () => {
    for (const line of [
      "import { spawn } from 'node:child_process';",
      "import { createServer } from 'node:net';",
      "import { request } from 'node:http';",
      "import { connect } from 'node:tls';",
      "import { pipeline } from 'node:stream/promises';",
      "import { gzipSync } from 'node:zlib';",
      "import { startMockProcess } from './processes.js';",
      "import { RedisServer } from '../../mocks/test/redis-server.js';",
    ])
      expect(NODE_IO.test(line), line).toBe(true);
    for (const line of ["import { readFileSync } from 'node:fs';", "import { useMock } from './mock-under-test.js';", "import { describe } from 'vitest';"])
      expect(NODE_IO.test(line), line).toBe(false);
  });

  it('hold every test file that starts a process, and the one that caught Node 26 cutting bodies past 64 KiB', () => {
    const all = testFiles(REPO_ROOT);
    const starting = all.filter((file) => /\b(spawn|spawnSync|execFile|execFileSync|fork|startMockProcess|startServer|runOk|RedisServer\.start)\(/.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(starting.length).toBeGreaterThan(10);
    expect(starting.filter((file) => !nodeSpecific.includes(file))).toEqual([]);
    expect(nodeSpecific).toContain('mocks/test/buffered-bodies.test.ts');
    // Fewer than all: the point of the set.
    expect(nodeSpecific.length).toBeLessThan(all.length);
  });

  it('name by subject only files that exist and that the rule does not already take, each with a reason', () => {
    for (const [file, why] of Object.entries(NODE_SPECIFIC_BY_SUBJECT)) {
      expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
      expect(NODE_IO.test(readFileSync(join(REPO_ROOT, file), 'utf8')), `${file} is Node-specific by rule already`).toBe(false);
      expect(why.length).toBeGreaterThan(20);
    }
  });

  it('are what .ci/run runs on each supported Node, and the whole suite on the machine’s', () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toContain('npx vitest run --config vitest.node-versions.config.ts');
    expect(ci).toMatch(/for major in \$\{CI_NODE_MAJORS-24 26\}/);
    // The config runs these files alone, not these beside the base config's every file.
    expect(nodeVersionsConfig.test?.include).toEqual(nodeSpecific);
  });
});
