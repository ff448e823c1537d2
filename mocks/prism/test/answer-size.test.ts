/**
 * An answer made up from a schema asking for more than any answer holds (`minItems: 100000000`):
 * Prism's samplers honour minItems whatever its size, so `--dynamic` (json-schema-faker) held the
 * process without end. The answers' schemas are bounded at start (mocks/prism/operations.ts): the
 * answer comes at once, short, with its shortfall in `sl-violations`, and is not made up again.
 * Over real HTTP against startPrismMock serving the spec written here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismMock, type PrismMock } from '../server.js';

const SPEC = `
openapi: 3.1.0
info: {title: Rows, version: "1"}
paths:
  /rows:
    get:
      operationId: getRows
      responses:
        '200':
          description: every row
          content:
            application/json:
              schema:
                type: object
                required: [rows, grid]
                properties:
                  rows: {type: array, minItems: 100000000, items: {type: string, minLength: 2000000000}}
                  grid: {type: array, minItems: 5000, items: {type: array, minItems: 5000, items: {type: integer}}}
`;

let dir: string;
let prism: PrismMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prism-answer-size-'));
  writeFileSync(join(dir, 'openapi.yaml'), SPEC);
  prism = await startPrismMock({ port: 0, spec: join(dir, 'openapi.yaml') });
});
afterAll(async () => {
  await prism?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an answer whose schema asks for 10^8 items', () => {
  it('is made up by json-schema-faker bounded, its shortfall in sl-violations', async () => {
    const response = await fetch(`${prism.url}/rows`, { headers: { prefer: 'dynamic=true' } });
    const body = (await response.json()) as { rows: string[]; grid: number[][] };
    expect(response.status).toBe(200);
    expect(body.rows.length).toBeGreaterThan(0);
    // minItems lowered to 16 384 shared among the parts; json-schema-faker may add a few items past a minItems.
    expect(body.rows.length + body.grid.flat().length).toBeLessThan(100_000);
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as string[];
    expect(violations).toContain('Response body rows must NOT have fewer than 100000000 items');
  });
});
