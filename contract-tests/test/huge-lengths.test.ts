/**
 * A spec's lengths taken as "no limit" (`maxLength: 2147483647`, common in generated specs) or
 * beyond any body (`minItems: 100000000`): the suite makes no case it cannot send. Past 1 Mi
 * characters a length case is not made, and a valid value the schema needs larger is written too
 * small and its cases reported as not sent; before, the suite built the 2 GB string, held 4 GB
 * of heap for over a minute and died out of memory. Against a small notes provider of the test's
 * own (node:http, in memory).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const LIMITLESS = 2_147_483_647;

function specFile(name: string, properties: Record<string, unknown>, required: string[]): string {
  const note = { type: 'object', required, properties: { id: { type: 'integer', readOnly: true }, ...properties } };
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    paths: {
      '/notes': {
        post: {
          operationId: 'createNote',
          requestBody: { required: true, content: json(note) },
          responses: { '201': { description: 'Created', content: json(note) }, '400': { description: 'Invalid' } },
        },
      },
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'The note', content: json(note) }, '404': { description: 'None' } },
        },
      },
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'huge-lengths-')), name);
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

/** Runs the suite against a provider storing any object whose required members are present; the longest body it was sent, too. */
async function runAgainst(spec: string, required: string[]): Promise<{ report: ContractReport; longestBody: number }> {
  const notes = new Map<number, Record<string, unknown>>();
  let longestBody = 0;
  const report = await runSuiteAgainst(
    (request, answer) => {
      longestBody = Math.max(longestBody, request.body.length);
      if (request.url.pathname === '/notes' && request.method === 'POST') {
        const body = request.json();
        if (body === null || typeof body !== 'object' || Array.isArray(body) || !/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return answer(400);
        const note = body as Record<string, unknown>;
        if (required.some((name) => !(name in note)) || (note.text !== undefined && typeof note.text !== 'string') || 'id' in note) return answer(400);
        const id = notes.size + 1;
        // Only the declared members are kept (an undeclared one may nest 10 000 deep).
        notes.set(id, { id, ...Object.fromEntries(Object.entries(note).filter(([name]) => name === 'text' || name === 'lines')) });
        return answer(201, notes.get(id));
      }
      const stored = request.method === 'GET' ? notes.get(Number(/^\/notes\/(\d+)$/.exec(request.url.pathname)?.[1])) : undefined;
      return stored ? answer(200, stored) : answer(404);
    },
    { spec, seed: 7, generated: { positive: 2, negative: 2 } },
  );
  return { report, longestBody };
}

describe('lengths no body can carry', () => {
  it('maxLength 2147483647 is a string without a limit: judged, passed, no body past a few MiB', async () => {
    const { report, longestBody } = await runAgainst(specFile('limitless.json', { text: { type: 'string', maxLength: LIMITLESS } }, ['text']), ['text']);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => f.message)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.operations.find((o) => o.operationId === 'createNote')?.passed).toBeGreaterThan(20);
    expect(longestBody).toBeLessThan(4 * 1024 * 1024);
  });

  it('minItems 100000000 on a required array: its valid cases reported as not sent, the run ends', async () => {
    const spec = specFile('many.json', { lines: { type: 'array', minItems: 100_000_000, items: { type: 'string', minLength: LIMITLESS } } }, ['lines']);
    const { report, longestBody } = await runAgainst(spec, ['lines']);
    const skipped = report.operations.find((o) => o.operationId === 'createNote')?.skipped ?? [];
    expect(skipped.map((s) => s.reason).join('\n')).toMatch(/meant as a valid .* the spec's validator rejects it/);
    expect(longestBody).toBeLessThan(4 * 1024 * 1024);
  });
});
