/**
 * A state file written under one spec, the mock started again on a changed one (issue 39): records
 * the new create schema refuses, or whose identity is no longer the key they are stored under, were
 * served anyway (some listed, then 404). Now the start is refused naming them, or, with
 * --discard-unkept-records, they go (and what is nested under them) and the others are served.
 * The real state file, the mock over real HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMockArgs, mockCommand } from '../config.js';
import { createMockServer } from '../server.js';
import { openStateFile } from '../stores/state-file.js';
import { call } from './corpus.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown, status = '200') => ({ [status]: { description: 'ok', ...json(schema) } });
const path = (name: string, type: string) => ({ name, in: 'path', required: true, schema: { type } });

/** Plants with an integer id and a `size`, their notes under them; `sizeType` and `noteId` are what the next version changes. */
function specWith(sizeType: string, noteId: string) {
  const plant = { type: 'object', required: ['id', 'size'], properties: { id: { type: 'integer' }, size: { type: sizeType } } };
  const note = { type: 'object', required: ['id'], properties: { id: { type: noteId } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Changing', version: '1' },
    paths: {
      '/plants': {
        post: { operationId: 'createPlant', requestBody: { required: true, ...json(plant) }, responses: ok(plant, '201') },
        get: { operationId: 'listPlants', responses: ok({ type: 'array', items: plant }) },
      },
      '/plants/{id}': { parameters: [path('id', 'integer')], get: { operationId: 'getPlant', responses: ok(plant) } },
      '/plants/{id}/notes': {
        parameters: [path('id', 'integer')],
        post: { operationId: 'createNote', requestBody: { required: true, ...json(note) }, responses: ok(note, '201') },
        get: { operationId: 'listNotes', responses: ok({ type: 'array', items: note }) },
      },
      '/plants/{id}/notes/{noteId}': { parameters: [path('id', 'integer'), path('noteId', noteId)], get: { operationId: 'getNote', responses: ok(note) } },
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'state-spec-change-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function specFile(name: string, spec: object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

describe('a state file over a changed spec', () => {
  it('refuses the start naming the records the new spec cannot serve; with --discard-unkept-records serves the others', async () => {
    const file = join(dir, 'state.log');
    const before = specFile('v1.json', specWith('integer', 'integer'));
    const first = await createMockServer({ port: 0, logLevel: 'silent', spec: before, store: await openStateFile(file), unkept: { file, discard: false } });
    for (const [id, size] of [
      [1, 3],
      [2, 4],
    ]) {
      expect((await call(first, 'POST', '/plants', { id, size })).status).toBe(201);
    }
    expect((await call(first, 'POST', '/plants/1/notes', { id: 7 })).status).toBe(201);
    expect((await call(first, 'POST', '/plants/2/notes', { id: 8 })).status).toBe(201);
    await first.close();

    // The next version: sizes are strings now (every plant refused), and note ids strings (stored under integers).
    const after = specFile('v2.json', specWith('string', 'string'));
    const refusedStore = await openStateFile(file);
    const refused = await createMockServer({ port: 0, logLevel: 'silent', spec: after, store: refusedStore, unkept: { file, discard: false } }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    await refusedStore.close();
    expect(refused).toContain(`The state file ${file} holds 4 records this spec cannot serve: /plants 1 (`);
    expect(refused).toContain('/plants 2');
    expect(refused).toContain('--discard-unkept-records');

    // Only the notes' identity changed: the plants are kept, the notes dropped.
    const notesOnly = specFile('v3.json', specWith('integer', 'string'));
    const kept = await createMockServer({ port: 0, logLevel: 'silent', spec: notesOnly, store: await openStateFile(file), unkept: { file, discard: true } });
    try {
      expect((await call(kept, 'GET', '/plants')).json).toEqual([
        { id: 1, size: 3 },
        { id: 2, size: 4 },
      ]);
      expect((await call(kept, 'GET', '/plants/1/notes')).json).toEqual([]);
      expect((await call(kept, 'GET', '/__mock/plants/2/notes')).json).toEqual([]);
      expect((await call(kept, 'POST', '/plants/1/notes', { id: '7' })).status).toBe(201);
      expect((await call(kept, 'GET', '/plants/1/notes/7')).json).toEqual({ id: '7' });
    } finally {
      await kept.close();
    }
    // The discarded records are gone from the file: the same spec starts without a word.
    const again = await createMockServer({ port: 0, logLevel: 'silent', spec: notesOnly, store: await openStateFile(file), unkept: { file, discard: false } });
    await again.close();
  });

  it('--discard-unkept-records is for a state file', () => {
    expect(parseMockArgs(['--state-file', 'x.log', '--discard-unkept-records'], mockCommand()).discardUnkeptRecords).toBe(true);
    const command = mockCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => undefined });
    expect(() => parseMockArgs(['--discard-unkept-records'], command)).toThrow(/--discard-unkept-records applies to the records of a --state-file/);
  });
});
