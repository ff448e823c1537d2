/**
 * Identities the mock assigns are never given again once deleted, across restarts: on the state
 * file (the mock killed -9 and started again on it, and after a compaction has dropped the deleted
 * records' lines) and on a real redis-server (a new mock on the same Redis, killed -9 before).
 * In memory the sequence keeps counting: these stores must resume past it, not from their count.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { openStateFile } from '../stores/state-file.js';
import { corpusSpec } from './corpus.js';
import { startMockProcess, type Server as Child } from './processes.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const SPEC = corpusSpec('petstore-expanded-3.0');

function stateFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'assigned-ids-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'pets.state');
}

async function create(url: string, name: string): Promise<number> {
  const response = await fetch(`${url}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text).id;
}

async function remove(url: string, id: number): Promise<void> {
  expect((await fetch(`${url}/pets/${id}`, { method: 'DELETE' })).status).toBe(204);
}

async function killHard(mock: Child): Promise<void> {
  mock.child.kill('SIGKILL');
  await mock.exit;
}

/** Creates 1, 2 and 3, deletes 2 and 3: a sequence started from the count (1) would give 2 again. */
async function createThenDeleteTheLast(url: string): Promise<void> {
  expect([await create(url, 'a'), await create(url, 'b'), await create(url, 'c')]).toEqual([1, 2, 3]);
  await remove(url, 3);
  await remove(url, 2);
}

describe('assigned identities after a restart', () => {
  it('in memory: the sequence keeps counting past deleted ids', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC });
    cleanups.push(() => mock.close());
    await createThenDeleteTheLast(mock.url);
    expect(await create(mock.url, 'd')).toBe(4);
  });

  it('on a state file: killed -9 and started again, a create gets a new id, never a deleted one', async () => {
    const path = stateFile();
    const first = await startMockProcess(['--spec', SPEC, '--state-file', path]);
    await createThenDeleteTheLast(first.url);
    await killHard(first);
    const second = await startMockProcess(['--spec', SPEC, '--state-file', path]);
    expect(await create(second.url, 'd')).toBe(4);
    await remove(second.url, 4);
    await killHard(second);
    const third = await startMockProcess(['--spec', SPEC, '--state-file', path]);
    expect(await create(third.url, 'e')).toBe(5);
  });

  it('on a state file: the collection cleared (DELETE /__mock/pets), killed -9 and started again, a create gets a new id', async () => {
    const path = stateFile();
    const first = await startMockProcess(['--spec', SPEC, '--state-file', path]);
    expect([await create(first.url, 'a'), await create(first.url, 'b')]).toEqual([1, 2]);
    expect((await fetch(`${first.url}/__mock/pets`, { method: 'DELETE' })).status).toBe(204);
    await killHard(first);
    const second = await startMockProcess(['--spec', SPEC, '--state-file', path]);
    expect(await (await fetch(`${second.url}/__mock/pets`)).json()).toEqual([]);
    expect(await create(second.url, 'c')).toBe(3);
  });

  it('on a state file compacted since the deletes (their lines gone): still past them', async () => {
    const path = stateFile();
    // Every change compacts once the file passes a few bytes: the deleted records' lines go at once.
    const open = () => openStateFile(path, { compactMinBytes: 1 });
    let mock: MockServer = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC, store: await open() });
    await createThenDeleteTheLast(mock.url);
    await mock.close();
    const reopened = await open();
    // Only pet 1 is left in the file: no line of pet 3 (nor of 2) tells the replay they were ever given.
    expect(readFileSync(path, 'utf8')).not.toMatch(/"key":"[23]"/);
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC, store: reopened });
    cleanups.push(() => mock.close());
    expect(await create(mock.url, 'd')).toBe(4);
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`assigned identities on a real redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('a mock started again on the same Redis (the first killed -9) gives a new id, never a deleted one', async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    const first = await startMockProcess(['--spec', SPEC, '--store', redis.url]);
    await createThenDeleteTheLast(first.url);
    await killHard(first);
    const second = await startMockProcess(['--spec', SPEC, '--store', redis.url]);
    expect(await create(second.url, 'd')).toBe(4);
    // Clearing the collection forgets its records as their deletes would: their ids are not given again.
    expect((await fetch(`${second.url}/__mock/pets`, { method: 'DELETE' })).status).toBe(204);
    await killHard(second);
    const third = await startMockProcess(['--spec', SPEC, '--store', redis.url]);
    expect(await create(third.url, 'e')).toBe(5);
    // A reset forgets every record: ids may start again.
    expect((await fetch(`${third.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
    await killHard(third);
    const fourth = await startMockProcess(['--spec', SPEC, '--store', redis.url]);
    expect(await create(fourth.url, 'f')).toBe(1);
  });
});
