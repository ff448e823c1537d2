/**
 * A spec's `pattern` on a body's string is judged by the spec's linear-time validator at the Prism
 * mock's edge, not by Prism's V8 RegExp: against `^(a+)+$`, 32 a's and a '!' held the process for
 * about 20 s (each added character doubles it). A body missing its pattern is refused with a 400 in
 * the shape the spec declares; a valid body and a body wrong in another way are still Prism's to
 * answer (201, 422). Over real HTTP against startPrismMock serving the spec written here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismMock, type PrismMock } from '../server.js';

const SPEC = `
openapi: 3.1.0
info: {title: Codes, version: "1"}
paths:
  /codes:
    post:
      operationId: createCode
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Code'}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Code'}, example: {code: aaa, kind: x}}}}
components:
  schemas:
    Code:
      type: object
      required: [code, kind]
      properties:
        code: {type: string, pattern: '^(a+)+$'}
        kind: {type: string, enum: [x, y]}
        tags: {type: array, items: {type: string, pattern: '^(b|bb)+$'}}
        labels:
          type: object
          patternProperties: {'^(c+)+$': {type: string}}
          additionalProperties: false
`;

let dir: string;
let prism: PrismMock;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prism-body-patterns-'));
  writeFileSync(join(dir, 'openapi.yaml'), SPEC);
  prism = await startPrismMock({ port: 0, spec: join(dir, 'openapi.yaml') });
});
afterAll(async () => {
  await prism?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${prism.url}/codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

describe("a body's pattern at the Prism mock", () => {
  it.each([
    ['a string of the body', { code: `${'a'.repeat(32)}!`, kind: 'x' }, 'code must match the pattern ^(a+)+$'],
    ['a string in an array of the body', { code: 'a', kind: 'x', tags: [`${'b'.repeat(40)}!`] }, 'tags[0] must match the pattern ^(b|bb)+$'],
  ])('%s that misses its pattern: a 400 naming it', async (_what, body, problem) => {
    const { status, json } = await post(body);
    expect([status, json]).toEqual([400, { error: 400, message: expect.stringContaining(problem) }]);
  });

  it.each([
    ['a key that no patternProperties pattern matches, where no other is allowed', { [`${'c'.repeat(32)}!`]: 'v' }, `labels must not have the property "${'c'.repeat(32)}!"`],
    ['a key a pattern matches, its value of the wrong type', { cc: 5 }, 'labels.cc must be a string'],
  ])('%s: a 400 naming it, judged in linear time', async (_what, labels, problem) => {
    const { status, json } = await post({ code: 'a', kind: 'x', labels });
    expect([status, json]).toEqual([400, { error: 400, message: expect.stringContaining(problem) }]);
  });

  it('a valid body: Prism answers it', async () => {
    expect(await post({ code: 'aaaa', kind: 'x', tags: ['bbb'] })).toEqual({ status: 201, json: { code: 'aaa', kind: 'x' } });
    expect(await post({ code: 'aaaa', kind: 'x', labels: { ccc: 'v', c: '' } })).toEqual({ status: 201, json: { code: 'aaa', kind: 'x' } });
  });

  it('a body wrong in another way: Prism refuses it, as before', async () => {
    const { status, json } = await post({ code: 'aaaa', kind: 'z' });
    expect(status).toBe(422);
    expect(JSON.stringify(json.validation)).toContain('kind');
  });
});
