/** Every row of the mock's answer table for POST /plants, over real HTTP. */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../stores/memory.js';
import type { StoredRecord } from '../stores/store.js';
import { createPlant, expectError, expectPlant, freshId, listedPlantsText, send, TOKEN, useMock } from './mock-under-test.js';

const mock = useMock({ maxBody: 1000 });

describe('valid NewPlant with an accepted token', () => {
  it('answers 200 with exactly the declared Plant (no id) and stores the plant', async () => {
    const id = freshId();
    const response = await createPlant(mock.current, { id, name: 'Monstera', tag: 'tropical', colour: 'green' });
    expectPlant(response, { name: 'Monstera', tag: 'tropical' });
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Monstera","tag":"tropical"}`);
  });

  it('leaves tag out of the answer when none was sent', async () => {
    expectPlant(await createPlant(mock.current, { id: freshId(), name: 'Ficus' }), { name: 'Ficus' });
  });

  it('accepts an empty name and any unicode', async () => {
    expectPlant(await createPlant(mock.current, { id: freshId(), name: '' }), { name: '' });
    expectPlant(await createPlant(mock.current, { id: freshId(), name: 'Ficus 🌿 «ü»', tag: '\u0000' }), {
      name: 'Ficus 🌿 «ü»',
      tag: '\u0000',
    });
  });
});

describe('authentication', () => {
  const body = { id: 1, name: 'Monstera' };
  it.each([
    ['no Authorization header', undefined, 'Bearer realm="plant-store"'],
    ['a Basic scheme', 'Basic dXNlcjpwYXNz', 'Bearer realm="plant-store"'],
    ['an empty token', 'Bearer ', 'Bearer realm="plant-store", error="invalid_request"'],
    ['a token with spaces', 'Bearer two words', 'Bearer realm="plant-store", error="invalid_token"'],
  ])('answers 401 with a Bearer challenge for %s', async (_name, authorization, challenge) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const response = await createPlant(mock.current, body, { noAuth: authorization === undefined, headers });
    expectError(response, 401);
    expect(response.headers.get('www-authenticate')).toContain(challenge);
  });

  it('reads the scheme name case-insensitively (RFC 7235)', async () => {
    const response = await createPlant(mock.current, { id: freshId(), name: 'x' }, { headers: { authorization: `bEaReR ${TOKEN}` } });
    expect(response.status).toBe(200);
  });
});

describe('media type', () => {
  it.each([
    ['missing', null],
    ['text/plain (a string body from fetch)', 'text/plain;charset=UTF-8'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['not a media type at all', '???'],
    ['a non-UTF-8 charset', 'application/json; charset=latin1'],
  ])('answers 415 when Content-Type is %s', async (_name, contentType) => {
    const message = expectError(await createPlant(mock.current, { id: freshId(), name: 'x' }, { contentType }), 415);
    expect(message).toMatch(/application\/json|UTF-8/);
  });

  it('says to send application/json', async () => {
    const message = expectError(await createPlant(mock.current, '{"id":1,"name":"x"}', { contentType: 'text/plain' }), 415);
    expect(message).toContain("'Content-Type: application/json'");
  });

  it('accepts parameters such as charset=utf-8 and any letter case', async () => {
    const ok = await createPlant(mock.current, { id: freshId(), name: 'x' }, { contentType: 'Application/JSON; charset=UTF-8' });
    expect(ok.status).toBe(200);
  });
});

describe('body size (--max-body 1000 here)', () => {
  const bodyOfSize = (size: number): string => {
    const skeleton = `{"id":${freshId()},"name":""}`;
    return skeleton.replace('""', `"${'a'.repeat(size - skeleton.length)}"`);
  };

  it('accepts a body of exactly the limit', async () => {
    const body = bodyOfSize(1000);
    expect(Buffer.byteLength(body)).toBe(1000);
    expect((await createPlant(mock.current, body)).status).toBe(200);
  });

  it('answers 413 one byte over the limit', async () => {
    const message = expectError(await createPlant(mock.current, bodyOfSize(1001)), 413);
    expect(message).toContain('1000 bytes');
  });

  it('refuses a large declared body before it is sent, without buffering the rest', async () => {
    // Declare 10 MB, send only the first bytes, and read the answer without sending the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, fail) => {
      const req = request(`${mock.current.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': 10_000_000 },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', fail);
      req.write('{"id":1,"name":"');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toBe(413);
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const answer = await new Promise<number>((resolve, fail) => {
      const req = request(`${mock.current.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.write(`{"id":1,"name":"${'a'.repeat(600)}`);
      req.write('a'.repeat(600)); // never ended: the mock must answer without waiting for the end
    });
    expect(answer).toBe(413);
  });
});

describe('how the body arrives', () => {
  /** Writes each piece of a raw request to one connection, pausing between them; resolves with everything answered. */
  const rawExchange = (pieces: string[], pauseMs: number, answers: number): Promise<string> =>
    new Promise((resolve, fail) => {
      const { port } = new URL(mock.current.url);
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk;
        if ((answer.match(/HTTP\/1\.1 /g) ?? []).length === answers && /\}$/.test(answer)) socket.end();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', fail);
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, pauseMs));
        }
      })();
    });
  const head = (length: number, extra = '') =>
    `POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${length}\r\n\r\n`;

  it('stores a plant whose body arrives in pieces after the headers', async () => {
    const id = freshId();
    const body = `{"id":${id},"name":"Slowly"}`;
    const answer = await rawExchange([head(body.length), body.slice(0, 5), body.slice(5, 12), body.slice(12)], 30, 1);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.endsWith('{"name":"Slowly"}')).toBe(true);
    expect(await listedPlantsText(mock.current)).toContain(`{"id":${id},"name":"Slowly"}`);
  });

  it('answers two requests pipelined in one write, in order', async () => {
    const [first, second] = [freshId(), freshId()];
    const bodies = [`{"id":${first},"name":"One"}`, `{"id":${second},"name":42}`];
    const answer = await rawExchange([bodies.map((b) => head(b.length) + b).join('')], 0, 2);
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    expect(statuses).toEqual(['200', '400']);
    expect(answer).toContain('{"name":"One"}');
    expect(answer).toContain('name must be a string');
  });

  it.each([
    ['within the limit', 'Chunked', 200],
    ['over the limit', 'x'.repeat(1200), 413],
  ])('reads a whole chunked body %s', async (_name, name, status) => {
    const body = `{"id":${freshId()},"name":"${name}"}`;
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const request = head(0, 'Transfer-Encoding: chunked\r\n').replace('Content-Length: 0\r\n', '');
    const answer = await rawExchange([request + chunked], 0, 1);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  });
});

describe('bodies that are not a valid NewPlant', () => {
  it.each([
    ['malformed JSON', '{"id": 1, "name": ', /not valid JSON/],
    ['an empty body', '', /the body is required/],
    ['an array', '[]', /body must be a JSON object, got an array/],
    ['a string', '"plant"', /body must be a JSON object/],
    ['null', 'null', /body must be a JSON object, got null/],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'), /JSON|UTF-8/],
    ['a byte order mark before the JSON', '\uFEFF{"id": 1, "name": "x"}', /starts with a byte order mark \(U\+FEFF\)/],
  ])('answers 400 for %s', async (_name, body, pattern) => {
    expect(expectError(await createPlant(mock.current, body), 400)).toMatch(pattern);
  });

  it('names every offending field, not just the first', async () => {
    const message = expectError(await createPlant(mock.current, { name: 7, tag: false }), 400);
    expect(message).toContain('id is required');
    expect(message).toContain('name must be a string, got the number 7');
    expect(message).toContain('tag must be a string, got false');
  });

  it.each([
    ['id as a string', { id: '7', name: 'x' }, 'id must be an integer'],
    ['id as a fraction', '{"id":1.5,"name":"x"}', 'id must be an integer'],
    ['id null', { id: null, name: 'x' }, 'id must be an integer, got null'],
    ['name missing', { id: 3 }, 'name is required'],
    ['tag null', { id: 3, name: 'x', tag: null }, 'tag must be a string'],
  ])('answers 400 for %s', async (_name, body, expected) => {
    expect(expectError(await createPlant(mock.current, body), 400)).toContain(expected);
  });

  it('keeps structured problems in the journal, not on the wire', async () => {
    await createPlant(mock.current, { name: 7 });
    const [latest] = (await mock.current.journal.entries()).entries;
    expect(latest?.code).toBe('INVALID_REQUEST_BODY');
    expect([...(latest?.problems ?? [])].sort()).toEqual(['id is required', 'name must be a string, got the number 7']);
  });
});

describe('duplicates', () => {
  it('answers 409 for an id already stored and keeps the first plant unchanged', async () => {
    const id = freshId();
    expect((await createPlant(mock.current, { id, name: 'First', tag: 'a' })).status).toBe(200);
    const message = expectError(await createPlant(mock.current, { id, name: 'Second' }), 409);
    expect(message).toContain(String(id));
    const listed = await listedPlantsText(mock.current);
    expect(listed).toContain(`{"id":${id},"name":"First","tag":"a"}`);
    expect(listed).not.toContain('"Second"');
  });
});

describe('routes', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers 405 with Allow for %s /plants', async (method) => {
    const response = await send(mock.current, '/plants', undefined, { method, contentType: null });
    expectError(response, 405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers HEAD /plants with 405 and Allow, without a body', async () => {
    const response = await fetch(`${mock.current.url}/plants`, { method: 'HEAD' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it.each(['/', '/plant', '/plants/1', '/v1/plants', '/__mock/nothing'])('answers 404 for %s', async (path) => {
    expectError(await send(mock.current, path, { id: 1, name: 'x' }), 404);
  });

  it('routes /plants/ and /plants?query like /plants', async () => {
    expect((await send(mock.current, '/plants/', { id: freshId(), name: 'x' })).status).toBe(200);
    expect((await send(mock.current, '/plants?dry=1', { id: freshId(), name: 'x' })).status).toBe(200);
  });
});

describe('unexpected failures', () => {
  class FailingStore extends MemoryStore {
    override create(collection: string, record: StoredRecord) {
      if (record.json.includes('"boom"')) throw new Error('disk on fire');
      return super.create(collection, record);
    }
  }
  const failing = useMock({ store: new FailingStore() });

  it('answers 500 in the Error shape and keeps serving', async () => {
    const message = expectError(await createPlant(failing.current, { id: 1, name: 'boom' }), 500);
    // The failure's class only: its message may quote what a request carried (the log has it whole).
    expect(message).toContain("(an Error; the mock's log has the details)");
    expect(message).not.toContain('disk on fire');
    expect((await createPlant(failing.current, { id: 2, name: 'fine' })).status).toBe(200);
  });
});

describe('requests that are not well-formed HTTP', () => {
  const raw = (text: string): Promise<string> =>
    new Promise((resolve, fail) => {
      const { port } = new URL(mock.current.url);
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', fail);
    });

  it.each([
    ['a garbled request line', 'PLANT ME A TREE\r\n\r\n', 400],
    ['a header without a colon', 'POST /plants HTTP/1.1\r\nHost: localhost\r\nbroken header\r\n\r\n', 400],
    ['oversized headers', `POST /plants HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers %s in the Error shape and closes', async (_name, text, status) => {
    const answer = await raw(text);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.error).toBe(status);
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  });
});
