/**
 * Filters judged with records that match and records that do not (contract-tests/sequences.ts, the
 * filter steps; list_honours_parameters): a boolean filter's other value, an array filter asked for two
 * values (any of them), and a record whose string differs only in letter case, against a small notes
 * provider of the test's own (node:http, in memory). The correct provider passes; one that ignores the
 * boolean, reads only the first of two values, or compares case-insensitively fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const Note = {
  type: 'object',
  required: ['title', 'pinned'],
  properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1, maxLength: 60 }, pinned: { type: 'boolean' }, tag: { type: 'string', maxLength: 60 } },
};
const Problem = { description: 'A problem', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [
          { name: 'title', in: 'query', schema: { type: 'string', maxLength: 60 } },
          { name: 'pinned', in: 'query', schema: { type: 'boolean' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string', maxLength: 60 } }, style: 'form', explode: true },
        ],
        responses: {
          '200': { description: 'Notes', content: { 'application/json': { schema: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: Note } } } } } },
          '400': Problem,
        },
      },
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: Note } } },
        responses: { '201': { description: 'The note', content: { 'application/json': { schema: Note } } }, '400': Problem, '415': Problem },
      },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: 'getNote', responses: { '200': { description: 'The note', content: { 'application/json': { schema: Note } } }, '400': Problem, '404': Problem } },
      delete: { operationId: 'deleteNote', responses: { '204': { description: 'Deleted' }, '400': Problem, '404': Problem } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'list-filters-'));
const SPEC_FILE = join(dir, 'notes.json');
writeFileSync(SPEC_FILE, JSON.stringify(SPEC));

type Flaw = 'title-case-insensitive' | 'pinned-ignored' | 'tag-first-value-only' | undefined;
interface Stored {
  id: number;
  title: string;
  pinned: boolean;
  tag?: string;
}

async function runAgainst(flaw: Flaw): Promise<ContractReport> {
  const notes = new Map<number, Stored>();
  let lastId = 0;
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/notes' && request.method === 'GET') {
        const title = url.searchParams.get('title');
        const pinned = url.searchParams.get('pinned');
        const tags = url.searchParams.getAll('tag');
        if (pinned !== null && pinned !== 'true' && pinned !== 'false') return answer(400, { message: 'pinned is true or false' });
        if ((title !== null && [...title].length > 60) || tags.some((t) => [...t].length > 60)) return answer(400, { message: 'too long' });
        const wanted = flaw === 'tag-first-value-only' ? tags.slice(0, 1) : tags;
        const items = [...notes.values()].filter(
          (note) =>
            (title === null || (flaw === 'title-case-insensitive' ? note.title.toLowerCase() === title.toLowerCase() : note.title === title)) &&
            (pinned === null || flaw === 'pinned-ignored' || String(note.pinned) === pinned) &&
            (wanted.length === 0 || (note.tag !== undefined && wanted.includes(note.tag))),
        );
        return answer(200, { items });
      }
      if (url.pathname === '/notes' && request.method === 'POST') {
        if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return answer(415, { message: 'send application/json' });
        const body = request.json() as Record<string, unknown> | undefined;
        const { title, pinned, tag } = (body ?? {}) as Record<string, unknown>;
        const valid =
          body !== null &&
          typeof body === 'object' &&
          !Array.isArray(body) &&
          !('id' in body) &&
          typeof title === 'string' &&
          [...title].length >= 1 &&
          [...title].length <= 60 &&
          typeof pinned === 'boolean' &&
          (tag === undefined || (typeof tag === 'string' && [...tag].length <= 60));
        if (!valid) return answer(400, { message: 'a note is {title, pinned, tag?}' });
        const note: Stored = { id: ++lastId, title, pinned, ...(tag === undefined ? {} : { tag: tag as string }) };
        notes.set(note.id, note);
        return answer(201, note);
      }
      const item = /^\/notes\/([^/]+)$/.exec(url.pathname);
      if (item && (request.method === 'GET' || request.method === 'DELETE')) {
        if (!/^[1-9]\d{0,9}$/.test(item[1] ?? '')) return answer(400, { message: 'id is a positive integer' });
        const note = notes.get(Number(item[1]));
        if (!note) return answer(404, { message: 'no such note' });
        if (request.method === 'GET') return answer(200, note);
        notes.delete(note.id);
        return answer(204);
      }
      answer(404, { message: 'no such route' });
    },
    { spec: SPEC_FILE, seed: 12, generated: { positive: 2, negative: 2 } },
  );
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);

describe('filters judged with records that match and records that do not', () => {
  it('passes a provider whose filters are exact: a boolean, two values of an array (any of them), a string in its own letter case', async () => {
    const report = await runAgainst(undefined);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    const filters = report.exchanges.flatMap((e) => (e.case.sequence?.filter ? [e.case.sequence.filter] : []));
    expect(filters.map((f) => f.parameter).sort()).toEqual(['pinned', 'tag', 'title']);
    expect(filters.find((f) => f.parameter === 'tag')?.values).toHaveLength(2);
    expect(typeof filters.find((f) => f.parameter === 'pinned')?.values[0]).toBe('boolean');
    // The record in the other letter case was created before the title filter.
    expect(report.exchanges.some((e) => /whose title is W[A-Z]+-TITLE: the filter title=/.test(e.case.description))).toBe(true);
  });

  it.each([
    ['title-case-insensitive', 'list_honours_parameters'],
    ['pinned-ignored', 'list_honours_parameters'],
    // Asked for two tags, it lists the notes of the first only: the other note is missing.
    ['tag-first-value-only', 'ensure_resource_availability'],
  ] as const)('fails against a provider whose filter is %s: %s', async (flaw, check) => {
    expect(failed(await runAgainst(flaw))).toEqual([check]);
  });
});
