/**
 * An operation may declare more than one success: a create answering 200 or 201 (an upsert tells
 * "replaced" from "created"). A provider answering any declared 2xx passes status_code_conformance,
 * and its answer is still held to response_echoes_request; a 2xx the spec does not declare fails.
 * Against a small notes provider of the test's own (node:http, in memory).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const note = { $ref: '#/components/schemas/Note' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [],
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewNote' }) },
        responses: {
          '201': { description: 'Created', content: json(note) },
          '200': { description: 'Replaced a note of the same title', content: json(note) },
          '400': { description: 'Invalid', content: json({ type: 'object', properties: { message: { type: 'string' } } }) },
        },
      },
    },
    '/notes/{noteId}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'The note', content: json(note) }, '404': { description: 'None' } },
      },
    },
  },
  components: {
    schemas: {
      NewNote: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 60 } } },
      Note: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } } },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'several-successes-')), 'notes.json');
writeFileSync(specFile, JSON.stringify(SPEC));

interface Behaviour {
  /** The status a create is answered with. */
  created: number;
  /** The create's answer names another title than the one sent (what is stored is right). */
  garbles?: boolean;
}

async function runAgainst(behaviour: Behaviour): Promise<ContractReport> {
  const notes = new Map<number, string>();
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      const item = /^\/notes\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/notes' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400, { message: 'not JSON' });
        const title = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).title : undefined;
        const length = typeof title === 'string' ? [...title].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof title !== 'string' || length < 1 || length > 60)
          return answer(400, { message: 'a title of 1 to 60 characters' });
        const id = notes.size + 1;
        notes.set(id, title);
        return answer(behaviour.created, { id, title: behaviour.garbles ? `${title}!` : title });
      }
      const stored = item && request.method === 'GET' ? notes.get(Number(item[1])) : undefined;
      if (item && stored !== undefined) return answer(200, { id: Number(item[1]), title: stored });
      answer(404);
    },
    { spec: specFile, seed: 12, generated: { positive: 2, negative: 2 } },
  );
}

const failed = (report: ContractReport, check: string): string[] => report.findings.filter((f) => f.severity === 'failure' && f.check === check).map((f) => f.message);

describe('an operation declaring two successes', () => {
  it('passes a provider answering its creates with the second one (201 where 200 and 201 are declared)', async () => {
    const report = await runAgainst({ created: 201 });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'response_echoes_request')?.judged).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('still holds that answer to response_echoes_request', async () => {
    const report = await runAgainst({ created: 201, garbles: true });
    expect(failed(report, 'response_echoes_request').join('\n')).toMatch(/The answer's title is .*!/);
    expect(failed(report, 'status_code_conformance')).toEqual([]);
  });

  it('fails a 2xx it does not declare', async () => {
    const report = await runAgainst({ created: 202 });
    expect(failed(report, 'status_code_conformance').join('\n')).toMatch(/Accepted a valid body with 202; the spec's success statuses are 200 and 201/);
  });
});
