/**
 * The shared request journal on a real redis-server: three journals on one prefix (three
 * replicas) see each other's entries, each marked with the replica that answered, in one dense
 * sequence; bounds in entries and bytes hold exactly; filters, cursors and whole entries; clear
 * keeps the sequence; prefixes apart; Redis out of reach drops entries without failing a request
 * and refuses reads with StoreUnavailable.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PATIENT_MS } from './processes.js';
import type { JournalRecord } from '../admin/journal.js';
import { openRedisJournal, type RedisJournal } from '../admin/redis-journal.js';
import { StoreUnavailable } from '../stores/store.js';
import { startMockProcess } from './processes.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

let time = Date.UTC(2026, 10, 23, 12, 0, 0);

/** An exchange as the edge hands it to `record`. */
function exchange(path: string, status: number, body = `{"id":1,"name":"${path}"}`): JournalRecord {
  return {
    time: time++,
    method: 'POST',
    path,
    status,
    durationMs: 1.5,
    verdict: status < 300 ? 'accepted' : status === 401 ? 'unauthenticated' : status < 500 ? 'rejected' : 'failed',
    operationId: 'createPlant',
    stateful: true,
    ...(status >= 400 ? { code: 'SOMETHING', message: `Refused with ${status}.` } : {}),
    request: {
      headers: [
        ['content-type', 'application/json'],
        ['authorization', 'Bearer ***'],
      ],
      body: { bytes: Buffer.byteLength(body), text: body, encoding: 'utf8' },
    },
    response: { headers: [['content-type', 'application/json']], body: { bytes: 2, text: '{}', encoding: 'utf8' } },
  };
}

/** Polls until the journal has taken `count` entries: `record` does not wait (bounded by a safety limit, not a timing). */
async function until(journal: RedisJournal, count: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < PATIENT_MS;) {
    if ((await journal.entries({ limit: 1 })).last >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the journal did not reach ${count} entries`);
}

describe.skipIf(REDIS_SKIP_REASON)(`RedisJournal on a real redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  let server: RedisServer;
  let inspect: Redis;
  const journals: RedisJournal[] = [];
  let prefixes = 0;

  async function open(replica: string, options: { prefix?: string; maxEntries?: number; maxBytes?: number } = {}): Promise<RedisJournal> {
    const journal = await openRedisJournal({ url: server.url, prefix: options.prefix ?? `journal-${prefixes}`, replica, ...options });
    journals.push(journal);
    return journal;
  }

  beforeAll(async () => {
    server = await RedisServer.start();
    inspect = new Redis({ port: server.port, lazyConnect: true });
    await inspect.connect();
  });
  afterAll(async () => {
    await Promise.all(journals.map((journal) => journal.close()));
    inspect?.disconnect();
    await server?.stop();
  });

  it('skips entries that are not one (not JSON, {}, another shape) in every listing, the export and by seq (issue 24 #7)', async () => {
    const prefix = `garbage-${++prefixes}`;
    const mock = await startMockProcess(['--store', server.url, '--store-prefix', prefix, '--log-level', 'warn']);
    const create = (id: number): Promise<Response> =>
      fetch(`${mock.url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify({ id, name: `p${id}` }) });
    expect((await create(1)).status).toBe(200);
    for (let attempt = 0; attempt < 200 && (await inspect.llen(`${prefix}:journal:entries`)) < 1; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    const garbage = ['not json', '{}', '[1,2]', 'null', '{"status":"200","path":1}'];
    // What another program, or a replica of another version, could push onto the shared list.
    for (const text of garbage) {
      await inspect.rpush(`${prefix}:journal:entries`, text);
      await inspect.rpush(`${prefix}:journal:sizes`, String(text.length));
      await inspect.incr(`${prefix}:journal:seq`);
    }
    expect((await create(2)).status).toBe(200);
    const listed = async (query: string): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${mock.url}/__mock/requests${query}`);
      return { status: response.status, body: response.status === 200 ? await response.json() : await response.text() };
    };
    // `record` does not wait: poll (bounded) until the second create is in.
    for (let attempt = 0; attempt < 200 && (await listed('')).body.last < 7; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const query of ['', '?whole=true', '?status=2xx', '?q=p2', '?limit=1000&whole=true']) {
      const { status, body } = await listed(query);
      expect(status, query).toBe(200);
      expect(body.entries.length, query).toBe(query === '?q=p2' ? 1 : 2);
      expect(
        body.entries.every((entry: { method?: string }) => typeof entry.method === 'string'),
        query,
      ).toBe(true);
    }
    const { body } = await listed('?whole=true');
    expect(body.entries.map((entry: { seq: number }) => entry.seq)).toEqual([7, 1]);
    expect(body.last).toBe(7);
    const cases = await listed('?format=cases');
    expect(cases.status).toBe(200);
    expect(JSON.stringify(cases.body)).toContain('p2');
    for (const seq of [2, 3, 4, 5, 6]) expect((await fetch(`${mock.url}/__mock/requests/${seq}`)).status).toBe(404);
    expect((await fetch(`${mock.url}/__mock/requests/7`)).status).toBe(200);
  });

  it("shows every replica's entries to each, newest first, one dense sequence, each marked with the replica that answered", async () => {
    prefixes++;
    const replicas = await Promise.all(['replica-1', 'replica-2', 'replica-3'].map((name) => open(name)));
    for (let i = 0; i < 30; i++) expect(replicas[i % 3]?.record(exchange(`/plants/${i}`, 200))).toBeUndefined(); // never waits
    await until(replicas[0] as RedisJournal, 30);
    const pages = await Promise.all(replicas.map((journal) => journal.entries({ limit: 1000 })));
    for (const page of pages) {
      expect(page).toEqual(pages[0]);
      expect(page.last).toBe(30);
      expect(page.more).toBe(false);
      expect(page.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    }
    // One replica's entries keep the order it recorded them in; each says who answered.
    for (const [r, name] of ['replica-1', 'replica-2', 'replica-3'].entries()) {
      const mine = (pages[0]?.entries ?? []).filter((entry) => entry.replica === name).reverse();
      expect(mine.map((entry) => entry.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/plants/${i * 3 + r}`));
    }
    const newest = (pages[0]?.entries ?? [])[0];
    expect(newest).toMatchObject({
      seq: 30,
      method: 'POST',
      status: 200,
      verdict: 'accepted',
      operationId: 'createPlant',
      request: {
        headers: [
          ['content-type', 'application/json'],
          ['authorization', 'Bearer ***'],
        ],
      },
    });
    expect(newest?.at).toMatch(/^2026-11-23T12:00:00\.\d{3}Z$/);
    // A listing is summaries; the entry, or `whole`, has the bodies' text.
    const sent = `{"id":1,"name":"${newest?.path}"}`;
    expect(newest?.request.body).toEqual({ bytes: Buffer.byteLength(sent), encoding: 'utf8' });
    const whole = await replicas[2]?.entry(30);
    expect(whole?.request.body?.text).toBe(sent);
    expect((await replicas[1]?.entries({ limit: 1, whole: true }))?.entries[0]).toEqual(whole);
  });

  it('filters by status class, path and text, pages with before/after and says when more match', async () => {
    prefixes++;
    const journal = await open('only');
    const statuses = [200, 400, 401, 409, 200, 503, 200, 415, 200, 404];
    statuses.forEach((status, i) => journal.record(exchange(i % 2 ? '/plants' : '/__mock/plants', status, `{"note":"${i === 7 ? 'Needle' : 'hay'}"}`)));
    await until(journal, 10);
    const seqs = (page: { entries: { seq: number }[] }) => page.entries.map((entry) => entry.seq);
    expect(seqs(await journal.entries({ status: ['4xx'] }))).toEqual([10, 8, 4, 3, 2]);
    expect(seqs(await journal.entries({ status: ['2xx', '5xx'] }))).toEqual([9, 7, 6, 5, 1]);
    expect(seqs(await journal.entries({ path: '__mock' }))).toEqual([9, 7, 5, 3, 1]);
    expect(seqs(await journal.entries({ text: 'needle' }))).toEqual([8]);
    const first = await journal.entries({ limit: 3 });
    expect(seqs(first)).toEqual([10, 9, 8]);
    expect(first.more).toBe(true);
    const second = await journal.entries({ limit: 3, before: 8 });
    expect(seqs(second)).toEqual([7, 6, 5]);
    const last = await journal.entries({ limit: 3, before: 2 });
    expect(seqs(last)).toEqual([1]);
    expect(last.more).toBe(false);
    expect(seqs(await journal.entries({ after: 7 }))).toEqual([10, 9, 8]);
    expect(seqs(await journal.entries({ after: 7, status: ['4xx'], limit: 1 }))).toEqual([10]);
    expect(await journal.entries({ before: 1 })).toEqual({ entries: [], last: 10, more: false });
    expect(await journal.entry(11)).toBeUndefined();
    expect(await journal.entry(0)).toBeUndefined();
  });

  it('holds at most its entries and its bytes, the oldest leaving first, and counts the bytes it holds', async () => {
    prefixes++;
    const byCount = await open('a', { maxEntries: 5 });
    for (let i = 1; i <= 12; i++) byCount.record(exchange(`/count/${i}`, 200));
    await until(byCount, 12);
    expect((await byCount.entries()).entries.map((entry) => entry.path)).toEqual(['/count/12', '/count/11', '/count/10', '/count/9', '/count/8']);
    expect(await inspect.llen(`journal-${prefixes}:journal:entries`)).toBe(5); // exactly, not about
    expect(await inspect.llen(`journal-${prefixes}:journal:sizes`)).toBe(5);
    expect(await byCount.entry(7)).toBeUndefined();
    const stats = await byCount.stats();
    expect(stats).toMatchObject({ entries: 5, maxEntries: 5 });
    // The byte count is the sum of what the list holds, and the sizes say each entry's.
    const held = await inspect.lrange(`journal-${prefixes}:journal:entries`, 0, -1);
    expect(stats.bytes).toBe(held.reduce((sum, json) => sum + Buffer.byteLength(json), 0));
    expect((await inspect.lrange(`journal-${prefixes}:journal:sizes`, 0, -1)).map(Number)).toEqual(held.map((json) => Buffer.byteLength(json)));

    prefixes++;
    const big = 'x'.repeat(2000);
    const byBytes = await open('b', { maxBytes: 5000 });
    for (let i = 1; i <= 6; i++) byBytes.record(exchange(`/bytes/${i}`, 200, `{"blob":"${big}"}`));
    await until(byBytes, 6);
    const kept = await byBytes.stats();
    expect(kept.entries).toBe(2); // each entry is over 2 000 bytes: two fit in 5 000
    expect(kept.bytes).toBeLessThanOrEqual(5000);
    // An entry larger than the whole bound is still kept, alone: the newest is never lost.
    byBytes.record(exchange('/bytes/huge', 200, `{"blob":"${'y'.repeat(6000)}"}`));
    await until(byBytes, 7);
    expect((await byBytes.entries({ whole: true })).entries.map((entry) => entry.path)).toEqual(['/bytes/huge']);
  });

  it('clears for every replica and goes on numbering after the last seq; prefixes keep sandboxes apart', async () => {
    prefixes++;
    const [one, two] = [await open('one'), await open('two')];
    const other = await open('elsewhere', { prefix: 'another-sandbox' });
    for (let i = 0; i < 4; i++) one.record(exchange('/before', 200));
    other.record(exchange('/theirs', 200));
    await until(one, 4);
    await until(other, 1);
    await two.clear();
    expect(await one.entries()).toEqual({ entries: [], last: 4, more: false });
    expect(await one.stats()).toMatchObject({ entries: 0, bytes: 0 });
    two.record(exchange('/after', 201));
    await until(one, 5);
    expect((await one.entries()).entries.map((entry) => [entry.seq, entry.path, entry.replica])).toEqual([[5, '/after', 'two']]);
    expect((await other.entries()).entries.map((entry) => entry.path)).toEqual(['/theirs']);
  });

  it('after a FLUSHALL numbers on from the last seq a replica saw: no seq repeats and an old cursor reads the new entries (issue 24)', async () => {
    prefixes++;
    const [one, two] = [await open('one'), await open('two')];
    for (let i = 0; i < 5; i++) one.record(exchange(`/before/${i}`, 200));
    await until(one, 5);
    // The inspector's cursor, read through the other replica.
    const cursor = (await two.entries({ limit: 1 })).last;
    expect(cursor).toBe(5);
    await inspect.flushall();
    // Polled before anything new arrives, the journal does not go back to 0 under its reader.
    expect(await two.entries({ after: cursor })).toEqual({ entries: [], last: 5, more: false });
    one.record(exchange('/after/1', 200));
    two.record(exchange('/after/2', 200));
    await until(one, 7);
    const after = await one.entries({ after: cursor });
    // Numbered on from 5, newest first. Which replica's entry takes 6 is a race between their two
    // connections to Redis, so the paths are compared as a set.
    expect(after.entries.map((entry) => entry.seq)).toEqual([7, 6]);
    expect(after.entries.map((entry) => entry.path).sort()).toEqual(['/after/1', '/after/2']);
    const mine = after.entries.find((entry) => entry.path === '/after/1');
    expect(await two.entry(mine?.seq ?? 0)).toMatchObject({ seq: mine?.seq, path: '/after/1' });
  });

  it('drops entries while Redis is out of reach without failing the request, refuses reads with StoreUnavailable, and journals again once it is back', async () => {
    const lonely = await RedisServer.start();
    const journal = await openRedisJournal({ url: lonely.url, prefix: 'fault', replica: 'r' });
    try {
      journal.record(exchange('/kept', 200));
      await until(journal, 1);
      await lonely.kill();
      expect(() => journal.record(exchange('/lost', 200))).not.toThrow();
      await expect(journal.entries()).rejects.toThrow(StoreUnavailable);
      await expect(journal.stats()).rejects.toThrow(StoreUnavailable);
      expect(journal.dropped).toBeGreaterThanOrEqual(1);
      await lonely.restart();
      for (const started = Date.now(); Date.now() - started < PATIENT_MS;) {
        journal.record(exchange('/back', 200));
        if ((await journal.entries({ limit: 1 }).catch(() => undefined))?.entries.length) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await journal.entries({ limit: 1 })).entries[0]?.path).toBe('/back');
    } finally {
      await journal.close();
      await lonely.stop();
    }
  });

  it('counts every entry of a batch Redis refuses as dropped', async () => {
    const journal = await open('refused', { prefix: 'refused-sandbox' });
    // Something else holds the entries' key: RPUSH answers WRONGTYPE and the whole call fails.
    await inspect.set('refused-sandbox:journal:entries', 'not a list');
    for (let i = 0; i < 3; i++) journal.record(exchange(`/refused/${i}`, 200));
    await vi.waitUntil(() => journal.dropped >= 3, { timeout: PATIENT_MS, interval: 10 }).catch(() => undefined);
    expect(journal.dropped).toBe(3);
  });
});
