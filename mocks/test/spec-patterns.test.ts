/**
 * A hostile spec's `pattern` (issue 24 #2): `^(a+)+$` on `name` froze a backtracking engine for
 * seconds on one 50-byte POST, health included. The attack runs against the real process, sized so
 * that only a linear engine answers it; its cost beside a control is a goal of `npm run bench`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as load, stringify as dump } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SPEC_PATH } from '../../openapi/plant-store.js';
import { compileContract } from '../../openapi/operations/compile.js';
import { ContractError } from '../../openapi/document/load.js';
import { patternProblem, refusedPatterns } from '../../openapi/schema/patterns.js';
import { run, MOCK_CLI, startMockProcess } from './processes.js';

type Document = Record<string, any>;

function specWith(edit: (d: Document) => void): { path: string; document: Document } {
  const document = load(readFileSync(SPEC_PATH, 'utf8')) as Document;
  edit(document);
  const path = join(mkdtempSync(join(tmpdir(), 'spec-patterns-')), 'spec.yaml');
  writeFileSync(path, dump(document));
  return { path, document };
}

async function post(url: string, name: string): Promise<number> {
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
    body: JSON.stringify({ id: 1, name }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("a spec's patterns run in linear time", () => {
  it('answers a backtracking attack on ^(a+)+$ that no backtracking engine could finish, and health after it', async () => {
    const { path } = specWith((d) => void (d.components.schemas.Plant.properties.name.pattern = '^(a+)+$'));
    const mock = await startMockProcess(['--spec', path]);
    // A backtracking engine doubles its time per added `a` (27 cost V8's about a second): 2^100 steps
    // never end, so only a linear engine answers at all. Its cost beside a same-sized control is a
    // goal of `npm run bench` (bench/costs.ts), not a time asserted here.
    expect(await post(mock.url, `${'a'.repeat(100)}!`)).toBe(400);
    expect(await post(mock.url, `${'b'.repeat(100)}!`)).toBe(400);
    expect(await post(mock.url, 'a'.repeat(100))).toBe(200);
    const health = await fetch(`${mock.url}/__mock/health`);
    expect(health.status).toBe(200);
  });

  it('keeps distinct patterns apart and matches as JSON Schema says (unanchored, unicode)', () => {
    const { document } = specWith((d) => {
      d.components.schemas.Plant.properties.name.pattern = '\\p{Lu}\\d';
      d.components.schemas.Plant.properties.tag.pattern = '^x+$';
    });
    const contract = compileContract(document, 'patterns.yaml');
    const validate = contract.componentValidator('Plant');
    expect(validate({ name: 'ok É7 ok' })).toBe(true);
    expect(validate({ name: 'e7' })).toBe(false);
    expect(validate({ name: 'A1', tag: 'xxx' })).toBe(true);
    expect(validate({ name: 'A1', tag: 'A1' })).toBe(false);
  });

  it('refuses at load, with the JSON pointer, a pattern only a backtracking engine can run', async () => {
    const { path, document } = specWith((d) => {
      d.components.schemas.Plant.properties.name.pattern = '^(?=.*\\d)\\w+$';
      d.components.schemas.Plant.properties.tag.patternProperties = { '(a)\\1': {} };
      d.components.schemas.Plant.properties.example = { type: 'string', pattern: '^ok$' }; // a property named example is a schema
      d.components.schemas.Plant.example = { pattern: '(?=data)' }; // data, not a keyword
    });
    expect(
      refusedPatterns(document)
        .map((r) => r.pointer)
        .sort(),
    ).toEqual(['#/components/schemas/Plant/properties/name/pattern', '#/components/schemas/Plant/properties/tag/patternProperties/(a)\\1']);
    expect(() => compileContract(document, 'hostile.yaml')).toThrow(ContractError);
    expect(() => compileContract(document, 'hostile.yaml')).toThrow(/#\/components\/schemas\/Plant\/properties\/name\/pattern/);
    expect(patternProblem('^[a-z]+$')).toBeUndefined();
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', path], {}, 30_000);
    expect(code).toBe(1);
    expect(output).toContain('#/components/schemas/Plant/properties/name/pattern');
    expect(output).toContain('linear');
  }, 60_000);
});
