/**
 * The start bundle (sandbox/bundle.ts) that `npm start`, the bin and the image run. Every test
 * that starts the mock as a process runs it (mocks/test/processes.ts); these check what it holds,
 * from esbuild's own account of it (dist/start/meta.json, written by `npm run build`), and that
 * the files it finds beside itself (the default spec, the inspector, Swagger UI) are found.
 */
import { readFileSync } from 'node:fs';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { MOCK_CLI, startMockProcess } from '../../mocks/test/processes.js';
import { MOCK_START } from '../../mocks/node-flags.js';
import { packageFile } from '../../package/root.js';
import { OUTSIDE_THE_BUNDLE, START_METAFILE, staticClosure } from '../bundle.js';

const metafile = JSON.parse(readFileSync(START_METAFILE, 'utf8')) as Metafile;
const { outputs } = metafile;

/** The npm packages whose code the outputs hold, and the ones they import from node_modules. */
function packagesIn(files: Iterable<string>): { bundled: Set<string>; imported: Set<string> } {
  const bundled = new Set<string>();
  const imported = new Set<string>();
  for (const file of files) {
    for (const input of Object.keys(outputs[file]?.inputs ?? {})) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
      if (name) bundled.add(name);
    }
    for (const { path, external } of outputs[file]?.imports ?? []) if (external && !path.startsWith('node:')) imported.add(path);
  }
  return { bundled, imported };
}

const entry = Object.keys(outputs).find((file) => file === MOCK_START) as string;
/** The mock itself, which the entry imports (dynamically) on every start once the compile cache is on. */
const main = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === 'dist/mocks/main.js') as string;

describe('the start bundle', () => {
  it('has the entry npm start runs, which turns on the compile cache before it imports the mock', () => {
    expect(entry).toBe(MOCK_START);
    expect(main).toBeDefined();
    expect(outputs[entry]?.imports).toContainEqual(expect.objectContaining({ path: main, kind: 'dynamic-import' }));
    expect(Object.keys(outputs[main]?.inputs ?? {}).length).toBeGreaterThan(50);
  });

  it('loads at every start what a mock in memory needs, and keeps what only some runs need in files of their own', () => {
    const atStart = staticClosure(metafile, [entry, main]);
    const start = packagesIn(atStart);
    const all = packagesIn(Object.keys(outputs));
    expect([...start.bundled]).toEqual(expect.arrayContaining(['ajv', 'ajv-formats', 'pino', 'commander', 'yaml']));
    // The same parts mocks/test/startup-imports.test.ts holds tsc's build to.
    for (const name of ['openapi-backend', 'lodash', '@apidevtools/json-schema-ref-parser', 'mock-json-schema']) {
      expect(start.bundled, name).not.toContain(name);
      expect(all.bundled, name).toContain(name);
    }
    for (const name of OUTSIDE_THE_BUNDLE) {
      expect(all.bundled, name).not.toContain(name);
      expect(all.imported, name).toContain(name);
    }
    // The Redis client only by a run on Redis.
    expect(start.imported).not.toContain('ioredis');
  });

  it('finds the files it serves from the package: the default spec, the inspector and Swagger UI', async () => {
    const mock = await startMockProcess();
    expect(mock.output()).toContain('"title":"Plant Store"');
    const inspector = await fetch(`${mock.url}/__mock/`);
    expect(inspector.status).toBe(200);
    expect(await inspector.text()).toContain('<html');
    const swagger = await fetch(`${mock.url}/__mock/docs/swagger-ui.css`);
    expect(swagger.status).toBe(200);
    expect((await swagger.text()).length).toBeGreaterThan(1000);
    expect(MOCK_CLI.endsWith(MOCK_START)).toBe(true);
  });

  // The packages it imports only when first needed are CommonJS, and a bundle gives their
  // dynamic import no named exports (tsc's build does): each is used here through the bundle.
  it('loads the parts it imports later and uses them: openapi-backend for the inspector', async () => {
    const mock = await startMockProcess(['--spec', packageFile('fixtures/specs/petstore-expanded-3.0/openapi.yaml'), '--stateless', 'findPets']);
    const spec = await fetch(`${mock.url}/__mock/spec`);
    expect(spec.status).toBe(200);
    const view = (await spec.json()) as { operations: { operationId: string }[] };
    expect(view.operations.map((operation) => operation.operationId)).toEqual(expect.arrayContaining(['findPets', 'addPet', 'findPetById', 'deletePet']));
    const listed = await fetch(`${mock.url}/pets`);
    expect(listed.status).toBe(200);
    expect(Array.isArray(await listed.json())).toBe(true);
    const forced = await fetch(`${mock.url}/pets/1`, { headers: { prefer: 'code=404' } });
    expect(forced.status).toBe(404);
    expect(mock.output()).not.toContain('unexpected failure');
  });
});
