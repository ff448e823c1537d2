/**
 * A small notes API for tests of one check: a spec of createNote and getNote whose responses the
 * test writes, and an in-memory provider of it (node:http, ./small-provider.ts) whose answers the
 * test bends one way (the create's status, a garbled title, headers sent or left out).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SmallHandler } from './small-provider.js';

export const NOTE = { $ref: '#/components/schemas/Note' };
export const json = (schema: unknown) => ({ 'application/json': { schema } });

/** The notes spec with the responses given for the create and the read, written to a temp file; its path. */
export function writeNotesSpec(name: string, responses: { create: Record<string, unknown>; read: Record<string, unknown> }): string {
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    security: [],
    paths: {
      '/notes': { post: { operationId: 'createNote', requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewNote' }) }, responses: responses.create } },
      '/notes/{noteId}': {
        get: { operationId: 'getNote', parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }], responses: responses.read },
      },
    },
    components: {
      schemas: {
        NewNote: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 60 } } },
        Note: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } } },
      },
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), `${name}-`)), 'notes.json');
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

export interface NotesBehaviour {
  /** The status a create is answered with (201 by default). */
  created?: number;
  /** The create's answer names another title than the one sent (what is stored is right). */
  garbles?: boolean;
  /** Headers a create's answer carries, for the note made. */
  createdHeaders?: (id: number) => Record<string, string>;
  /** Headers a read's answer carries. */
  readHeaders?: Record<string, string>;
}

/** A correct notes provider, but for `behaviour`: a title of 1 to 60 characters as JSON, 400 otherwise; ids from 1. */
export function notesProvider(behaviour: NotesBehaviour = {}): SmallHandler {
  const notes = new Map<number, string>();
  return (request, answer) => {
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
      return answer(behaviour.created ?? 201, { id, title: behaviour.garbles ? `${title}!` : title }, behaviour.createdHeaders?.(id));
    }
    const stored = item && request.method === 'GET' ? notes.get(Number(item[1])) : undefined;
    if (item && stored !== undefined) return answer(200, { id: Number(item[1]), title: stored }, behaviour.readHeaders);
    answer(404);
  };
}
