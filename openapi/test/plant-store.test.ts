/**
 * The spec itself: faithful to the seed, clean under Redocly's recommended rules, and the
 * generated types in step with it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../operations/compile.js';
import { SPEC_PATH } from '../plant-store.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;

describe('spec/plant-store.openapi.yaml', () => {
  const contract = loadContract();
  const spec = contract.document as any;

  it('says what the seed says', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe('1.0.0');
    expect(spec.info.license.identifier).toBe('MIT');
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    expect(spec.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(spec.paths)).toEqual(['/plants']);
    expect(Object.keys(spec.paths['/plants'])).toEqual(['post']);
    const operation = spec.paths['/plants'].post;
    expect(operation.operationId).toBe('createPlant');
    expect(operation.requestBody.required).toBe(true);
    expect(Object.keys(operation.responses)).toEqual(['200', '400']);
    const createPlant = contract.operations.get('createPlant');
    expect([...(createPlant?.responses.get(200)?.content.get('application/json')?.properties ?? [])].sort()).toEqual(['name', 'tag']);
    expect([...(createPlant?.requestBody?.content.get('application/json')?.properties ?? [])].sort()).toEqual(['id', 'name', 'tag']);
    expect(spec.components.schemas.Error.required).toEqual(['error', 'message']);
  });

  it('passes Redocly lint with the recommended rules', async () => {
    const { stdout, stderr } = await run(bin('redocly'), ['lint', SPEC_PATH], { cwd: root });
    expect(stdout + stderr).toMatch(/valid/i);
  });

  it('has generated types in step with it (npm run gen:types regenerates them)', async () => {
    const { stdout } = await run(bin('openapi-typescript'), [SPEC_PATH], { cwd: root });
    const committed = readFileSync(fileURLToPath(new URL('../plant-store.gen.ts', import.meta.url)), 'utf8');
    expect(committed).toBe(stdout);
  });
});
