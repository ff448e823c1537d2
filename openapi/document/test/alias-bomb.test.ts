/**
 * A YAML alias bomb cannot cost the tools memory (issue 39, degraded): 700 bytes of nested aliases
 * in an `x-` field parse into a value of a billion nodes written out, and each load of
 * `/__mock/docs/openapi.json` took ~1 GB and 10 s. It is refused at load by the YAML reader's alias bound (`yaml`'s maxAliasCount), naming why; a
 * document that reuses parts through aliases still loads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readContract } from '../../operations/compile.js';
import { MOCK_CLI, run } from '../../../mocks/test/processes.js';

const folder = mkdtempSync(join(tmpdir(), 'alias-bomb-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const HEAD = 'openapi: 3.1.0\ninfo: {title: Bomb, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses:\n        "200": {description: ok}\n';
// Nine levels of ten aliases each: 10^9 strings written out.
const levels = ['  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
for (let level = 1; level < 9; level++) levels.push(`  l${level}: &l${level} [${Array.from({ length: 10 }, () => `*l${level - 1}`).join(',')}]`);
const BOMB = `${HEAD}x-bomb:\n${levels.join('\n')}\n`;

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('YAML aliases', () => {
  it('refuse a bomb at load, naming the bound', async () => {
    expect(BOMB.length).toBeLessThan(1000);
    await expect(readContract(file('bomb.yaml', BOMB))).rejects.toThrow(/Excessive alias count/);
  });

  it('keep the mock from starting on one, saying why (a real process)', async () => {
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', file('bomb-cli.yaml', BOMB)]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/Excessive alias count/);
  });

  it('still load a document that reuses a part through aliases', async () => {
    const reuse = `${HEAD.replace('"200": {description: ok}', '"200": &ok {description: ok}')}  /b:\n    get:\n      operationId: getB\n      responses:\n        "200": *ok\n`;
    const contract = await readContract(file('reuse.yaml', reuse));
    expect([...contract.operations.keys()]).toEqual(['getA', 'getB']);
  });
});
