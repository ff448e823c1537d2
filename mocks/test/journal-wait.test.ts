/**
 * `GET /__mock/requests?after=N&wait=S`: the journal's long poll (mocks/admin/journal-wait.ts), over
 * real HTTP: answered the moment an entry after N is journaled (by this mock, or by another replica
 * sharing a real redis-server), at the end of its wait otherwise, at once when the mock holds its
 * bound of waits, and at once for every wait when the mock stops.
 */
import { get } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAITERS, RELOADS_HEADER, WAIT_HEADER } from '../admin/journal-wait.js';
import { openRedisJournal } from '../admin/redis-journal.js';
import { createMockServer, type MockServer } from '../server.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const AUTH = { authorization: 'Bearer t', 'content-type': 'application/json' };

interface Listing {
  entries: { seq: number; method: string; path: string }[];
  last: number;
}

async function last(mock: MockServer): Promise<number> {
  return ((await (await fetch(`${mock.url}/__mock/requests?limit=1`)).json()) as Listing).last;
}

/** A waiting read, and whether it has answered yet (read without waiting for it). */
function waitOn(mock: MockServer, after: number, seconds = 30, init: RequestInit = {}) {
  let answered = false;
  const answer = fetch(`${mock.url}/__mock/requests?after=${after}&wait=${seconds}`, init).then(async (response) => {
    answered = true;
    return { status: response.status, outcome: response.headers.get(WAIT_HEADER), body: (await response.json()) as Listing };
  });
  return { answer, answered: () => answered };
}

/** Until the mock holds `count` waits parked on nothing new: each parks once its request is read and its cursor checked (checked each loop turn, bounded by the test's limit). */
async function untilWaiting(mock: MockServer, count: number): Promise<void> {
  while (mock.waits.held < count) await new Promise((resolve) => setImmediate(resolve));
}

describe('the journal long poll on one mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent' });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('answers the moment an entry after the cursor is journaled, with that entry', async () => {
    const cursor = await last(mock);
    const waiting = waitOn(mock, cursor);
    await untilWaiting(mock, 1);
    // Nothing new yet: another admin read comes and goes while the wait holds.
    expect((await fetch(`${mock.url}/__mock/plants`)).status).toBe(200);
    expect(waiting.answered()).toBe(false);
    expect((await fetch(`${mock.url}/plants`, { method: 'POST', headers: AUTH, body: '{"id":1,"name":"Fern"}' })).status).toBe(200);
    const { status, outcome, body } = await waiting.answer;
    expect([status, outcome]).toEqual([200, 'news']);
    expect(body.entries.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['POST /plants']);
    expect(body.last).toBe(cursor + 1);
    expect(mock.waits.size).toBe(0);
  });

  it('answers at once when the journal already holds newer entries, and after its wait when none come', async () => {
    const cursor = await last(mock);
    await fetch(`${mock.url}/plants`, { method: 'POST', headers: AUTH, body: '{"id":"x"}' });
    expect(await waitOn(mock, cursor).answer).toMatchObject({ status: 200, outcome: 'news', body: { last: cursor + 1 } });
    const idle = await waitOn(mock, cursor + 1, 1).answer;
    expect(idle).toMatchObject({ status: 200, outcome: 'timeout', body: { entries: [], last: cursor + 1 } });
  });

  it('answers entries filtered out too: the cursor moves on with last', async () => {
    const cursor = await last(mock);
    const response = fetch(`${mock.url}/__mock/requests?after=${cursor}&wait=30&status=5xx`);
    await untilWaiting(mock, 1);
    await fetch(`${mock.url}/plants`, { method: 'POST', headers: AUTH, body: '{"id":3,"name":"Ivy"}' });
    const answer = await response;
    expect(answer.headers.get(WAIT_HEADER)).toBe('news');
    expect(await answer.json()).toMatchObject({ entries: [], last: cursor + 1 });
  });

  it('answers at once when the spec was reloaded since the reload count the client gives (X-Mock-Spec-Reloads)', async () => {
    const listing = await fetch(`${mock.url}/__mock/requests?limit=1`);
    expect(listing.headers.get(RELOADS_HEADER)).toBe('0');
    const cursor = ((await listing.json()) as Listing).last;
    const answer = await fetch(`${mock.url}/__mock/requests?after=${cursor}&wait=30&reloads=3`);
    expect([answer.headers.get(WAIT_HEADER), answer.headers.get(RELOADS_HEADER)]).toEqual(['spec', '0']);
  });

  it.each([
    ['after=1&reloads=0', 'reloads goes with wait'],
    ['after=1&wait=5&reloads=-1', 'reload count'],
    ['wait=5', 'it needs after'],
    ['after=1&wait=0', 'from 1 to 30'],
    ['after=1&wait=31', 'from 1 to 30'],
    ['after=1&wait=soon', 'from 1 to 30'],
    ['after=1&before=9&wait=5', 'takes neither before'],
    ['after=1&wait=5&format=cases', 'format=cases'],
  ])('refuses ?%s with a 400 saying why', async (query, words) => {
    const response = await fetch(`${mock.url}/__mock/requests?${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(words);
  });

  it('refuses a foreign origin before waiting, as every admin route holding data', async () => {
    const response = await fetch(`${mock.url}/__mock/requests?after=0&wait=30`, { headers: { origin: 'http://evil.test' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the bounds of the long poll', () => {
  let mock: MockServer | undefined;
  afterEach(async () => {
    await mock?.close();
  });

  it(`holds at most ${MAX_WAITERS} waits, answers the next at once, and ends every wait when the mock stops`, async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent' });
    const cursor = await last(mock);
    const held = Array.from({ length: MAX_WAITERS }, () => waitOn(mock as MockServer, cursor));
    await untilWaiting(mock, MAX_WAITERS);
    expect(await waitOn(mock, cursor).answer).toMatchObject({ status: 200, outcome: 'busy', body: { entries: [] } });
    expect(held.some((wait) => wait.answered())).toBe(false);
    // Shutting down does not wait 30 s for them: each is answered, then the mock is gone.
    await mock.close();
    const outcomes = await Promise.all(held.map((wait) => wait.answer));
    expect(new Set(outcomes.map((answer) => `${answer.status} ${answer.outcome}`))).toEqual(new Set(['200 closing']));
  });

  it('lets go of a wait whose client went away', async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent' });
    const request = get(`${mock.url}/__mock/requests?after=${await last(mock)}&wait=30`);
    request.on('error', () => undefined);
    await untilWaiting(mock, 1);
    // As a browser cancels a request on HTTP/1.1: the connection closes.
    request.destroy();
    while (mock.waits.size > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(mock.waits.size).toBe(0);
  });
});

describe.skipIf(REDIS_SKIP_REASON)(`the long poll across replicas on a real redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  let redis: RedisServer;
  const mocks: MockServer[] = [];
  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
    await redis?.stop();
  });

  it('answers a wait on one replica the moment another replica journals a request', async () => {
    const replica = async (name: string) => {
      const mock = await createMockServer({ port: 0, logLevel: 'silent', replica: name, journal: await openRedisJournal({ url: redis.url, prefix: 'waits', replica: name }) });
      mocks.push(mock);
      return mock;
    };
    const [a, b] = [await replica('a'), await replica('b')];
    const cursor = await last(a);
    const waiting = waitOn(a, cursor);
    await untilWaiting(a, 1);
    expect((await fetch(`${a.url}/__mock/plants`)).status).toBe(200);
    expect(waiting.answered()).toBe(false);
    expect((await fetch(`${b.url}/plants`, { method: 'POST', headers: AUTH, body: '{"id":1,"name":"Moss"}' })).status).toBe(200);
    const { outcome, body } = await waiting.answer;
    expect(outcome).toBe('news');
    expect(body.entries).toMatchObject([{ method: 'POST', path: '/plants', replica: 'b' }]);
  });
});
