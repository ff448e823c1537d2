/**
 * Start-up loads only what a run needs (issue 26): a mock in memory starts without the Redis
 * client, without Prism and without openapi-backend; what makes a string for a schema's pattern
 * (randexp) is loaded by the first answer generated from a schema. docs/benchmarks.md ("Start-up") has what each of these cost.
 * Run on tsc's build, module by module, where Node reports each package it loads; the start bundle
 * keeps the same parts apart (sandbox/test/bundle.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MOCK_CLI_MODULES, PATIENT_MS, startServer, type Server } from './processes.js';

const PRELOAD = fileURLToPath(new URL('./loaded-packages.cjs', import.meta.url));
/** Fifty operations; its tools' create has no example, so its answer is generated from the schema. */
const WORKSHOP = fileURLToPath(new URL('../../bench/specs/workshop.openapi.yaml', import.meta.url));

/** The packages the process has loaded, as the preload reports them on SIGUSR2. */
async function loadedPackages(server: Server): Promise<string[]> {
  const before = server.output().length;
  server.child.kill('SIGUSR2');
  // A safety net: the list comes when the process handles the signal, each wait ends on its output.
  const deadline = Date.now() + PATIENT_MS;
  for (;;) {
    const match = /loaded-packages (\[.*\])\n/.exec(server.output().slice(before));
    if (match) return JSON.parse(match[1] as string) as string[];
    if (Date.now() > deadline) throw new Error(`no package list within ${PATIENT_MS} ms:\n${server.output()}`);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 100);
      server.child.stderr?.once('data', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
}

function startMock(args: string[]): Promise<Server> {
  return startServer(process.execPath, ['-r', PRELOAD, MOCK_CLI_MODULES, '--port', '0', '--log-level', 'warn', ...args]);
}

const NOT_AT_START = ['openapi-backend', 'pino-pretty', 'fast-xml-parser', 'lodash', 'randexp', 'ioredis', '@stoplight/prism-http', '@stoplight/prism-core', '@apidevtools/json-schema-ref-parser'];
/**
 * Node's HTTPS client, which only the proxy needs (its upstream may be https). Not tls or zlib: on
 * Node 24 and 26 importing `node:http` as an ES module loads both (and http2) whatever the mock does.
 */
const NODE_NOT_AT_START = ['node:https'];

describe('start-up', () => {
  it("starts a mock in memory without openapi-backend, the Redis client, Prism or Node's HTTPS client, and loads randexp for the first answer generated from a schema with a pattern", async () => {
    const server = await startMock(['--spec', WORKSHOP, '--stateless', 'createTool']);
    const atStart = await loadedPackages(server);
    // The probe sees the packages the mock does need.
    expect(atStart).toEqual(expect.arrayContaining(['ajv', 'pino']));
    for (const name of NOT_AT_START) expect(atStart, name).not.toContain(name);
    expect(atStart).toContain('node:http');
    for (const name of NODE_NOT_AT_START) expect(atStart, name).not.toContain(name);

    const response = await fetch(`${server.url}/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer any-token' },
      body: JSON.stringify({ name: 'Band saw', assetTag: 'T-0042', category: 'power' }),
    });
    expect(response.status).toBe(201);
    // Generated from the Tool schema (no example declared): every required property, of its type, the assetTag matching its pattern.
    expect(await response.json()).toMatchObject({ id: expect.any(String), name: expect.any(String), assetTag: expect.stringMatching(/^T-[0-9]{4}$/), category: 'hand' });
    const after = await loadedPackages(server);
    expect(after).toContain('randexp');
    // The sampler is the mock's own (openapi/schema/sample.ts): no generator package, and not openapi-backend's lodash.
    for (const name of ['mock-json-schema', 'lodash']) expect(after, name).not.toContain(name);
  });

  it('reads the linear-time pattern engine only for a spec that declares patterns', async () => {
    const seed = await startMock([]);
    expect(await loadedPackages(seed)).not.toContain('re2js');
    // The 50-operation spec declares patterns: each is checked at load.
    const patterned = await startMock(['--spec', WORKSHOP]);
    expect(await loadedPackages(patterned)).toContain('re2js');
  });
});
