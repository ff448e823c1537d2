/**
 * Answers Prism makes up from a schema honour the schema's patterns (issue 21): over real HTTP,
 * a spec whose answers have pattern-bound strings and no examples is answered, in Prism's default
 * (static) mode, with bodies the spec's own validators take — formats kept valid beside them; a
 * hostile pattern neither hangs the start nor an answer, keeps Prism's value and is logged once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../openapi/operations/compile.js';
import { type CompiledContract } from '../../../openapi/operations/model.js';
import { loadPrismOperations } from '../operations.js';
import { LONGEST, PatternStrings } from '../../../openapi/schema/pattern-strings.js';
import { startPrismMock, type PrismMock } from '../server.js';

// 1,800 characters at least: the linear-time engine takes it (no count past 1,000), the bound does not.
const HOSTILE = '^(x{30}){30}(y{30}){30}$';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Parts', version: '1.0.0' },
  paths: {
    '/parts/{sku}': {
      get: {
        operationId: 'getPart',
        parameters: [{ name: 'sku', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'A part',
            headers: { 'X-Request-Id': { required: true, schema: { type: 'string', pattern: '^req-[0-9a-f]{8}$' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Part' } } },
          },
        },
      },
    },
    '/parts': {
      get: {
        operationId: 'listParts',
        responses: { '200': { description: 'Parts', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Part' } } } } } },
      },
    },
    '/oddities': {
      get: {
        operationId: 'getOddity',
        responses: { '200': { description: 'An oddity', content: { 'application/json': { schema: { $ref: '#/components/schemas/Oddity' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Part: {
        type: 'object',
        required: ['sku', 'ref', 'contact', 'id', 'bin', 'aliases', 'supplier'],
        properties: {
          sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
          ref: { type: 'string', pattern: '^ref_[a-z0-9]+$', minLength: 12, maxLength: 14 },
          contact: { type: 'string', format: 'email', pattern: '^[a-z]+\\.?[a-z]+@parts\\.example$' },
          id: { type: 'string', format: 'uuid' },
          bin: { type: ['string', 'null'], pattern: '^B[0-9]{2}(/[A-F])?$' },
          aliases: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' } },
          supplier: { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^S[0-9]{3}$' } } },
        },
      },
      Oddity: {
        type: 'object',
        required: ['huge', 'fine'],
        properties: { huge: { type: 'string', pattern: HOSTILE }, fine: { type: 'string', pattern: '^ok[0-9]$' } },
      },
    },
  },
};

let dir: string;
let specPath: string;
let contract: CompiledContract;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prism-patterns-'));
  specPath = join(dir, 'openapi.json');
  writeFileSync(specPath, JSON.stringify(SPEC));
  contract = loadContract(specPath);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the Prism mock's made-up answers, over real HTTP", () => {
  let prism: PrismMock;
  beforeAll(async () => {
    prism = await startPrismMock({ port: 0, spec: specPath });
  });
  afterAll(() => prism?.close());

  it("answers pattern-bound strings without examples (body and headers) with strings the spec's own validator takes, formats kept valid", async () => {
    const isPart = contract.componentValidator('Part');
    const one = await fetch(`${prism.url}/parts/ABC-1234`);
    expect(one.status).toBe(200);
    const part = (await one.json()) as Record<string, unknown>;
    expect(isPart(part), JSON.stringify({ part, errors: isPart.errors })).toBe(true);
    expect(part.sku).not.toBe('string');
    expect(one.headers.get('x-request-id')).toMatch(/^req-[0-9a-f]{8}$/);

    const list = await fetch(`${prism.url}/parts`);
    expect(list.status).toBe(200);
    const parts = (await list.json()) as unknown[];
    expect(parts.length).toBeGreaterThan(0);
    for (const item of parts) expect(isPart(item), JSON.stringify({ item, errors: isPart.errors })).toBe(true);
  });

  it('answers an operation whose pattern is hostile, keeping the strings it can make', async () => {
    const response = await fetch(`${prism.url}/oddities`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { huge: string; fine: string };
    expect(body.fine).toMatch(/^ok[0-9]$/);
    expect(body.huge.length).toBeLessThanOrEqual(LONGEST);
  });
});

describe('the bounds on a hostile pattern', () => {
  it('makes no string a pattern could only make past the bound, without generating it, and says so once for the spec', async () => {
    const strings = new PatternStrings();
    // 10^9 characters if generated: refused from its parse alone (the test would run out of memory otherwise).
    expect(strings.stringFor({ pattern: '^((a{1000}){1000}){1000}$' })).toBeUndefined();
    expect(strings.stringFor({ pattern: HOSTILE })).toBeUndefined();
    expect(strings.stringFor({ pattern: '^x{1000}y{24}$' })).toHaveLength(LONGEST);
    // Open repetitions are capped: `+` repeats at most OPEN_REPETITION more times than its minimum.
    expect(strings.stringFor({ pattern: '^(ab)+$' })?.length).toBeLessThanOrEqual(2 * 9);
    expect(strings.refused).toEqual(['^((a{1000}){1000}){1000}$', HOSTILE]);

    const warnings: string[] = [];
    await loadPrismOperations(contract, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(JSON.stringify(HOSTILE));
  });

  it('leaves a pattern whose strings the lengths or the format refuse to Prism', () => {
    const strings = new PatternStrings();
    expect(strings.stringFor({ pattern: '^[0-9]{4}$', maxLength: 3 })).toBeUndefined();
    expect(strings.stringFor({ pattern: '^[a-z]+$', format: 'email' })).toBeUndefined();
    expect(strings.stringFor({ pattern: '^[a-z]+$', minLength: 2, maxLength: 3 })).toMatch(/^[a-z]{2,3}$/);
  });
});
