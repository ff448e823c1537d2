/**
 * The stand-ins for the packages openapi-backend loads but the mock never calls: the engine
 * starts without them, and they load and work on first use. Run in a fresh process on the
 * built code (`npm test` builds first), since a test worker may have loaded them already.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/mocks/engine/', import.meta.url));
const built = existsSync(`${DIST}openapi-backend-deps.js`);

const SCRIPT = `
const { loadSpecEngine } = await import(${JSON.stringify(`${DIST}spec-engine.js`)});
const { loadedDeferred } = await import(${JSON.stringify(`${DIST}openapi-backend-deps.js`)});
const { createRequire } = await import('node:module');
const engine = await loadSpecEngine();
const atStart = [...loadedDeferred];
const route = engine.route('POST', '/plants');
const valid = engine.validateNewPlant({ requestBody: { id: 1, name: 'x' } });
const fromBackend = createRequire(createRequire(import.meta.url).resolve('openapi-backend'));
const query = fromBackend('qs').parse('a=1&b=2');
const Validator = fromBackend('openapi-schema-validator').default;
const errors = new Validator({ version: 3 }).validate({ openapi: '3.0.0' }).errors.length;
console.log(JSON.stringify({ atStart, route, valid, query, errors, afterUse: [...loadedDeferred].sort() }));
`;

describe.skipIf(!built)(`openapi-backend's unused dependencies${built ? '' : ' (skipped: run `npm run build` first)'}`, () => {
  it('are not loaded to start the engine, and load and work on first use', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    const result = JSON.parse(stdout);
    expect(result.atStart).toEqual([]);
    expect(result.route).toEqual({ kind: 'operation', operationId: 'createPlant' });
    expect(result.valid).toBe(true);
    expect(result.query).toEqual({ a: '1', b: '2' });
    expect(result.errors).toBeGreaterThan(0); // a bare document is not a valid OpenAPI 3.0 one
    expect(result.afterUse).toEqual(['openapi-schema-validator', 'qs']);
  });
});
