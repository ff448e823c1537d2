/**
 * Prism's body validator merges every allOf with json-schema-merge-allof, which expands the
 * oneOf/anyOf branches it merges into every combination before the first answer: six oneOfs of
 * four branches side by side (4 096) held the process past 15 s, twenty nested ones for good. The
 * Prism mock refuses such a document at start, one line naming it, the JSON pointer and why (exit
 * 1); an allOf of a few alternatives is served as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../test/processes.js';
import { startPrismMock } from '../server.js';

const PRISM_CLI = fileURLToPath(new URL('../../../dist/mocks/prism/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'prism-allof-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A spec whose POST /orders body is allOf of `traits` oneOfs of four branches each, and a base. */
function spec(traits: number): string {
  const oneOfs = Array.from({ length: traits }, (_, i) => ({ oneOf: Array.from({ length: 4 }, (_, j) => ({ required: [`t${i}v${j}`] })) }));
  const document = {
    openapi: '3.1.0',
    info: { title: 'Orders', version: '1' },
    paths: {
      '/orders': {
        post: {
          operationId: 'createOrder',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
          responses: { '201': { description: 'made', content: { 'application/json': { schema: { type: 'object' }, example: { made: true } } } } },
        },
      },
    },
    components: { schemas: { Order: { allOf: [{ type: 'object', properties: { note: { type: 'string' } } }, ...oneOfs] } } },
  };
  const file = join(dir, `orders-${traits}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

describe('an allOf merging many oneOf branches, at the Prism mock', () => {
  it('4 096 alternatives: refused at start, one line naming the document, the pointer and why', async () => {
    const file = spec(6);
    const { code, output } = await run(process.execPath, [PRISM_CLI, '--port', '0', '--spec', file]);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([
      `plant-store-prism: ${file}#/components/schemas/Order: its allOf merges oneOf/anyOf branches into 4096 alternatives, and Prism's validator (json-schema-merge-allof) expands every one before it answers (4 096 held it past 15 s), so the Prism mock cannot serve this document; the stateful mock (npm start) can.`,
    ]);
  });

  it('16 alternatives: served, a body of one branch answered', async () => {
    const prism = await startPrismMock({ port: 0, spec: spec(2) });
    try {
      const response = await fetch(`${prism.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t0v1: 1, t1v2: 2 }) });
      expect([response.status, await response.json()]).toEqual([201, { made: true }]);
    } finally {
      await prism.close();
    }
  });
});
