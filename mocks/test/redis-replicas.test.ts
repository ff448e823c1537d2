/**
 * One sandbox on several replicas: real mock processes (`dist/start/cli.js --store redis://…`, as `npm start` runs it)
 * sharing one real redis-server, spoken to over HTTP. The duplicate rule, the listing, reset and
 * seed hold across processes; a replica killed with kill -9 loses nothing any replica
 * acknowledged; Redis killed and restarted is answered with 503s meanwhile and served again by
 * the same processes after; sandboxes under different prefixes never see each other.
 */
import { Redis } from 'ioredis';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { openRedisStore } from '../stores/redis.js';
import { MOCK_CLI, PATIENT_MS, run, startMockProcess, type Server } from './processes.js';
import { freePort, REDIS_SERVER_PATH, REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const AUTH = { authorization: 'Bearer t', 'content-type': 'application/json' };

interface Reply {
  status: number;
  text: string;
  retryAfter: string | null;
}

/** A create of `id` (exact digits) named `name`; status 0 when no answer came (the process died). */
async function create(url: string, id: bigint | number, name: string): Promise<Reply> {
  try {
    const response = await fetch(`${url}/plants`, { method: 'POST', headers: AUTH, body: `{"id":${id},"name":${JSON.stringify(name)}}` });
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') };
  } catch {
    return { status: 0, text: '', retryAfter: null };
  }
}

async function listing(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/__mock/plants`);
  return { status: response.status, text: await response.text() };
}

async function reset(url: string): Promise<number> {
  return (await fetch(`${url}/__mock/reset`, { method: 'POST' })).status;
}

/** The ids of a listing of `{"id":N,"name":"…"}` records, as the exact digits listed, in order. */
function listedIds(text: string): string[] {
  expect(text).toMatch(/^\[.*\]$/s);
  return [...text.matchAll(/\{"id":(-?\d+),"name":"[^"]*"\}/g)].map((match) => match[1] as string);
}

async function health(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/__mock/health`);
  return { status: response.status, body: await response.json() };
}

/** Polls until the replica's health route says its store is up (bounded by a safety limit, not a timing). */
async function untilHealthy(url: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < PATIENT_MS;) {
    if ((await health(url)).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not report its store up again: ${JSON.stringify((await health(url)).body)}`);
}

/** Distinct int64 ids spread over the whole range (splitmix64), the extremes and the neighbours of 2^53 first. */
function int64Ids(count: number, seed: bigint): bigint[] {
  const edges = [-(2n ** 63n), -(2n ** 63n) + 1n, -(2n ** 53n) - 1n, -(2n ** 53n), 0n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 2n, 2n ** 63n - 1n];
  const ids = new Set<bigint>(edges);
  let state = seed;
  while (ids.size < count) {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    ids.add(BigInt.asIntN(64, z ^ (z >> 31n)));
  }
  return [...ids].slice(0, count);
}

/** The Error shape of the spec, exactly. */
function expectSpecError(reply: Reply, status: number): string {
  expect(reply.status).toBe(status);
  const body = JSON.parse(reply.text);
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(status);
  expect(typeof body.message).toBe('string');
  return body.message as string;
}

/** Starts `count` replicas on one store; each lives to the end of the file unless a test kills it. */
function startReplicas(count: number, redisUrl: string, prefix: string, extra: string[] = []): Promise<Server[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => startMockProcess(['--store', redisUrl, '--store-prefix', prefix, '--replica-name', `${prefix}-${i + 1}`, ...extra], {}, 'file')));
}

describe.skipIf(REDIS_SKIP_REASON)(`three mock processes on one redis-server${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  const PREFIX = 'sandbox';
  let redis: RedisServer;
  let inspect: Redis;
  let replicas: Server[];
  let urls: string[];

  beforeAll(async () => {
    // AOF with an fsync before every reply, so a restart of Redis shows exactly what it acknowledged.
    redis = await RedisServer.start({ persistence: 'aof-always' });
    inspect = new Redis({ port: redis.port, lazyConnect: true });
    await inspect.connect();
    replicas = await startReplicas(3, redis.url, PREFIX);
    urls = replicas.map((replica) => replica.url);
  });
  afterAll(async () => {
    inspect?.disconnect();
    await redis?.stop();
  });

  it('report the shared store and their own name in health, never where the store is', async () => {
    for (const [i, url] of urls.entries()) {
      expect(await health(url)).toEqual({
        status: 200,
        body: { status: 'ok', replica: `${PREFIX}-${i + 1}`, store: { state: 'up', kind: 'redis' } },
      });
    }
  });

  it("share one request journal: each replica's inspector shows every replica's traffic, marked with who answered, and a clear clears it for all", async () => {
    const journalOf = async (url: string) =>
      (await (await fetch(`${url}/__mock/requests?limit=1000`)).json()) as { entries: { path: string; status: number; replica?: string; request: { headers: [string, string][] } }[] };
    const marker = `journal-${Date.now()}`;
    for (const [i, url] of urls.entries()) expect((await create(url, 777_000 + i, `${marker}-${i + 1}`)).status).toBe(200);
    // A replica sends its entries to Redis just after the answer leaves (docs/state.md): wait for them, bounded.
    const answeredBy = (entries: Awaited<ReturnType<typeof journalOf>>['entries']) =>
      entries
        .filter((entry) => entry.path === '/plants' && entry.status === 200)
        .slice(0, 3)
        .map((entry) => entry.replica)
        .sort();
    for (const url of urls) {
      let { entries } = await journalOf(url);
      for (const started = Date.now(); Date.now() - started < PATIENT_MS && answeredBy(entries).length < 3;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ({ entries } = await journalOf(url));
      }
      expect(answeredBy(entries)).toEqual([`${PREFIX}-1`, `${PREFIX}-2`, `${PREFIX}-3`]);
      // The credential sent is masked in the shared journal too.
      for (const entry of entries) expect(JSON.stringify(entry.request.headers)).not.toMatch(/Bearer t"/);
    }
    expect((await fetch(`${urls[1]}/__mock/requests`, { method: 'DELETE' })).status).toBe(204);
    for (const url of urls) expect((await journalOf(url)).entries.filter((entry) => entry.path === '/plants')).toEqual([]);
  });

  it('answer 50 simultaneous creates of one id spread over the three with exactly one 200 and 49 409s', async () => {
    expect(await reset(urls[0] as string)).toBe(204);
    const id = 2n ** 63n - 1n;
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => create(urls[i % 3] as string, id, `racer ${i}`)));
    const winners = replies.flatMap((reply, i) => (reply.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(replies.filter((reply) => reply.status === 409)).toHaveLength(49);
    for (const reply of replies.filter((r) => r.status === 409)) expect(expectSpecError(reply, 409)).toContain(`id ${id} already exists`);
    // Every replica lists the winner, and only it.
    for (const url of urls) expect((await listing(url)).text).toBe(`[{"id":${id},"name":"racer ${winners[0]}"}]`);
  });

  it('keep 600 distinct creates spread over the three, each listed exactly once by every replica, ids exact over the whole int64 range', async () => {
    expect(await reset(urls[1] as string)).toBe(204);
    const ids = int64Ids(600, 11n);
    const sent = ids.map(String);
    // 30 clients at a time, each create to the next replica in turn.
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        for (let i = next++; i < ids.length; i = next++) statuses[i] = (await create(urls[i % 3] as string, ids[i] as bigint, `p${i}`)).status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(600);
    const texts = await Promise.all(urls.map(async (url) => (await listing(url)).text));
    expect(new Set(texts).size).toBe(1); // every replica lists the same records in the same order
    const listed = listedIds(texts[0] as string);
    expect(listed).toHaveLength(600);
    expect([...listed].sort()).toEqual([...sent].sort());
    // Each record as it was received, name included: `p<i>` belongs to the i-th id.
    for (const [i, id] of sent.entries()) expect(texts[0]).toContain(`{"id":${id},"name":"p${i}"}`);
  });

  it('leave no half state when one replica resets during a burst through all three', async () => {
    expect(await reset(urls[2] as string)).toBe(204);
    // A logical clock orders what the test saw: a create sent after the reset was acknowledged
    // must survive; one acknowledged before the reset was sent must be gone.
    let clock = 0;
    const creates: Array<{ id: number; sent: number; acked: number; status: number }> = [];
    let resetSent = Infinity;
    let resetAcked = Infinity;
    let afterReset = 0;
    let nextId = 1;
    const worker = async (url: string): Promise<void> => {
      for (let i = 0; i < 200 && afterReset < 150; i++) {
        const id = nextId++;
        const sent = ++clock;
        const { status } = await create(url, id, `burst ${id}`);
        creates.push({ id, sent, acked: ++clock, status });
        if (sent > resetAcked) afterReset++;
      }
    };
    const resetting = (async () => {
      while (creates.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
      resetSent = ++clock;
      expect(await reset(urls[0] as string)).toBe(204);
      resetAcked = ++clock;
    })();
    await Promise.all([resetting, ...Array.from({ length: 24 }, (_, i) => worker(urls[i % 3] as string))]);
    expect(resetAcked).toBeLessThan(Infinity);
    expect(afterReset).toBeGreaterThan(0);
    expect(creates.every((c) => c.status === 200)).toBe(true);

    const listed = new Set(listedIds((await listing(urls[1] as string)).text));
    const gone = creates.filter((c) => c.acked < resetSent).map((c) => String(c.id));
    const kept = creates.filter((c) => c.sent > resetAcked).map((c) => String(c.id));
    expect(gone.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    expect(gone.filter((id) => listed.has(id))).toEqual([]);
    expect(kept.filter((id) => !listed.has(id))).toEqual([]);
    // No half-kept record: Redis' record hash and creation order hold the same keys as the listing.
    expect(await inspect.hlen(`${PREFIX}:records:/plants`)).toBe(listed.size);
    expect(new Set(await inspect.zrange(`${PREFIX}:order:/plants`, '0', '-1'))).toEqual(listed);
  });

  it('keep sandboxes under different prefixes apart: neither sees the other, and a reset touches only its own', async () => {
    expect(await reset(urls[0] as string)).toBe(204);
    const [other] = await startReplicas(1, redis.url, 'other-team');
    const otherUrl = (other as Server).url;
    expect((await create(urls[0] as string, 1, 'ours')).status).toBe(200);
    expect((await create(otherUrl, 1, 'theirs')).status).toBe(200); // the same id is free there
    expect((await create(otherUrl, 2, 'theirs too')).status).toBe(200);
    expect((await listing(urls[2] as string)).text).toBe('[{"id":1,"name":"ours"}]');
    expect((await listing(otherUrl)).text).toBe('[{"id":1,"name":"theirs"},{"id":2,"name":"theirs too"}]');
    expect(await reset(otherUrl)).toBe(204);
    expect((await listing(otherUrl)).text).toBe('[]');
    expect((await listing(urls[1] as string)).text).toBe('[{"id":1,"name":"ours"}]');
    // The sequence outlives a reset, and so does the shared journal (a reset forgets records, not requests); nothing else.
    expect((await inspect.keys('other-team:*')).filter((key) => !key.startsWith('other-team:journal'))).toEqual(['other-team:seq']);
    (other as Server).child.kill('SIGKILL');
  });

  it('answer 503s in the Error shape while Redis is down, then serve again from the same processes, every acknowledged create kept', async () => {
    expect(await reset(urls[0] as string)).toBe(204);
    const acked: string[] = [];
    const refused: Reply[] = [];
    const notStored: string[] = [];
    let killed: Promise<void> | undefined;
    let nextId = 1;
    // 24 clients create through the three until each has been refused once; Redis is killed mid-burst.
    await Promise.all(
      Array.from({ length: 24 }, async (_, worker) => {
        for (let i = 0; i < 2000; i++) {
          const id = nextId++;
          const reply = await create(urls[worker % 3] as string, id, `n${id}`);
          if (reply.status === 200) {
            acked.push(String(id));
            if (acked.length === 300) killed = redis.kill();
            continue;
          }
          refused.push(reply);
          if (!/may or may not have been applied/.test(reply.text)) notStored.push(String(id));
          return;
        }
      }),
    );
    await killed;
    expect(acked.length).toBeGreaterThanOrEqual(300);
    expect(refused).toHaveLength(24);
    for (const reply of refused) {
      expect(expectSpecError(reply, 503)).toMatch(/^The mock's store (is unavailable|did not acknowledge this change)/);
      expect(reply.retryAfter).toBe('1');
    }
    for (const url of urls) {
      const down = await health(url);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', store: { state: 'down', kind: 'redis' } });
      const refusedWhileDown = expectSpecError(await create(url, 10_000_000, 'while down'), 503);
      expect(refusedWhileDown).toContain('Nothing was stored');
      // Where the store is goes to the log, never to a client (a page of any origin reads this answer).
      expect(refusedWhileDown).not.toContain(new URL(redis.url).port);
      const listed = await listing(url);
      expect(expectSpecError({ ...listed, retryAfter: null }, 503)).toContain("The mock's store is unavailable");
    }

    await redis.restart();
    for (const url of urls) await untilHealthy(url);
    // The same processes, never restarted.
    for (const replica of replicas) expect(replica.child.exitCode).toBeNull();
    const listed = listedIds((await listing(urls[1] as string)).text);
    const kept = new Set(listed);
    expect(acked.filter((id) => !kept.has(id))).toEqual([]); // appendfsync always: every 200 survives Redis' crash
    expect(notStored.filter((id) => kept.has(id))).toEqual([]); // a 503 that says nothing was stored is true
    expect(kept.has('10000000')).toBe(false);
    for (const [i, url] of urls.entries()) expect((await create(url, 20_000_000 + i, 'after')).status).toBe(200);
  }, 300_000);

  it('answer a create Redis received but never acknowledged with a 503 that says it may have been applied, never a 200', async () => {
    expect(await reset(urls[0] as string)).toBe(204);
    redis.pause(); // SIGSTOP: the create reaches Redis' socket, and no answer comes within the store's 5 s
    try {
      const message = expectSpecError(await create(urls[0] as string, 77, 'frozen'), 503);
      expect(message).toContain('may or may not have been applied');
      expect(message).not.toMatch(/nothing was stored/i);
      expect(await health(urls[0] as string)).toEqual({ status: 503, body: { status: 'unavailable', replica: `${PREFIX}-1`, store: { state: 'down', kind: 'redis' } } });
      // The log is written off the event loop (http/logger.ts): the line may follow the answer by a moment.
      await expect.poll(() => replicas[0]?.output(), { timeout: PATIENT_MS }).toMatch(/lost Redis.*"reason":"Command timed out"|"reason":"Command timed out".*lost Redis/);
    } finally {
      redis.resume();
    }
    await untilHealthy(urls[0] as string);
    // Redis ran it once it woke: "nothing was stored" would have been false.
    expect((await listing(urls[1] as string)).text).toBe('[{"id":77,"name":"frozen"}]');
    expect((await create(urls[2] as string, 77, 'again')).status).toBe(409);
  });

  it('lose nothing any replica acknowledged when one is killed with kill -9 mid-burst', async () => {
    expect(await reset(urls[0] as string)).toBe(204);
    const victim = replicas[1] as Server;
    const acked: string[] = [];
    let unanswered = 0;
    let gone = false;
    let killed = false;
    let nextId = 1;
    void victim.exit.then(() => (gone = true));
    await Promise.all(
      Array.from({ length: 24 }, async (_, worker) => {
        const url = urls[worker % 3] as string;
        // The victim's clients send until it is gone, so requests are in flight when it dies; the
        // others go on a little after.
        for (let i = 0, afterKill = 0; i < 3000 && afterKill < 20; i++) {
          const id = nextId++;
          const reply = await create(url, id, `k${id}`);
          if (reply.status === 200) acked.push(String(id));
          else if (reply.status === 0) unanswered++;
          else expectSpecError(reply, 200); // anything but a 200 or no answer is a fault
          if (!killed && acked.length >= 300) {
            killed = true;
            victim.child.kill('SIGKILL');
          }
          if (gone) {
            if (url === victim.url) return;
            afterKill++;
          }
        }
      }),
    );
    expect(killed).toBe(true);
    expect(unanswered).toBeGreaterThan(0); // the kill landed while the victim had requests
    for (const url of [urls[0], urls[2]] as string[]) {
      const listed = listedIds((await listing(url)).text);
      expect(new Set(listed).size).toBe(listed.length);
      const kept = new Set(listed);
      expect(acked.filter((id) => !kept.has(id))).toEqual([]);
    }
  }, 300_000);
});

describe.skipIf(REDIS_SKIP_REASON)(`the mock's start on a Redis store${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, () => {
  it('exits 1 naming the URL, password masked and no stack trace, when Redis cannot be reached', async () => {
    const gone = await RedisServer.start();
    const url = `redis://:hunter2@127.0.0.1:${gone.port}/2`;
    await gone.stop();
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--store', url], {});
    expect(code).toBe(1);
    expect(output).toContain(`plant-store-mock: Cannot reach Redis at redis://:***@127.0.0.1:${gone.port}/2: connect ECONNREFUSED`);
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/^\s+at /m);
  });

  it('refuses --state-file with a Redis store as a usage error (exit 2)', async () => {
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--store', 'redis://127.0.0.1:1', '--state-file', 'plants.state'], {});
    expect(code).toBe(2);
    expect(output).toContain('--state-file keeps the records in a file and --store in Redis: choose one');
  });

  it('seeds once when replicas start together with one --seed: the first seeds, the others find it seeded', async () => {
    const redis = await RedisServer.start();
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'seed-')), 'plants.json');
      writeFileSync(file, '[{"id":-9223372036854775808,"name":"Seeded"},{"id":2,"name":"Two"}]');
      const started = await startReplicas(3, redis.url, 'seeded', ['--seed', file]);
      for (const { url } of started) expect((await listing(url)).text).toBe('[{"id":-9223372036854775808,"name":"Seeded"},{"id":2,"name":"Two"}]');
      for (const { child } of started) child.kill('SIGKILL');
    } finally {
      await redis.stop();
    }
  });

  it('starts a replica that found the store empty and was then beaten to the seed by another, with the records of the other', async () => {
    const redis = await RedisServer.start();
    const mocks: MockServer[] = [];
    try {
      const seed = [
        { id: 1, name: 'One' },
        { id: 2, name: 'Two' },
      ];
      // The real store, with its count held back until the other replica has seeded: the race of
      // two replicas starting together, made certain.
      const held = await openRedisStore({ url: redis.url, prefix: 'race' });
      const counted: number[] = [];
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const late = new Proxy(held, {
        get: (target, property) => {
          if (property === 'count') {
            return async (collection: string) => {
              const count = await target.count(collection);
              counted.push(count);
              await gate;
              return count;
            };
          }
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const lateStart = createMockServer({ port: 0, logLevel: 'silent', store: late, seed, seedOnlyIfEmpty: true });
      await vi.waitUntil(() => counted.length > 0, { timeout: PATIENT_MS, interval: 25 });
      expect(counted).toEqual([0]);
      mocks.push(await createMockServer({ port: 0, logLevel: 'silent', store: await openRedisStore({ url: redis.url, prefix: 'race' }), seed, seedOnlyIfEmpty: true }));
      release();
      mocks.push(await lateStart);
      for (const mock of mocks) expect((await listing(mock.url)).text).toBe('[{"id":1,"name":"One"},{"id":2,"name":"Two"}]');
    } finally {
      await Promise.all(mocks.map((mock) => mock.close()));
      await redis.stop();
    }
  });
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CURL_MISSING = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).status === 0 ? undefined : 'curl not found (apt-get install -y curl)';
const QUICK_CHECK_SKIP = REDIS_SKIP_REASON ?? CURL_MISSING;

/** The quick check of the state guide (docs/state.md): its sh block, as commands each with the output its `# → …` line promises (`…`: any text). */
function readmeQuickCheck(): Array<{ command: string; expected?: RegExp }> {
  const readme = readFileSync(join(ROOT, 'docs', 'state.md'), 'utf8');
  const block = /```sh\n(redis-server --port 6380 &\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("docs/state.md has no sh block starting with 'redis-server --port 6380 &'");
  const steps: Array<{ command: string; expected?: RegExp }> = [];
  for (const line of block.split('\n').filter(Boolean)) {
    if (line.startsWith('# → ')) {
      const pattern = line
        .slice(4)
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      (steps[steps.length - 1] as { expected?: RegExp }).expected = new RegExp(`^${pattern}$`, 's');
    } else if (!line.startsWith('#')) {
      steps.push({ command: line });
    }
  }
  return steps;
}

/** A command of the block run in the background (`… &`) in a process group of its own, stopped by its id. */
function background(command: string, cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // the group is gone already
    }
  };
  return {
    child,
    output: () => output,
    stop: async () => {
      signal('SIGTERM');
      const forced = setTimeout(() => signal('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
      signal('SIGKILL'); // anything of the group that outlived its shell
    },
  };
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
  }
}

describe.skipIf(QUICK_CHECK_SKIP)(`docs/state.md's quick check of two replicas on one Redis, as written${QUICK_CHECK_SKIP ? ` (skipped: ${QUICK_CHECK_SKIP})` : ''}`, () => {
  it('starts redis-server and two `npm start -- --store redis://…` processes that agree on every create', async () => {
    const steps = readmeQuickCheck();
    // The issue's words: redis-server on 6380 in the background, then two npm start on it.
    expect(steps[0]?.command).toBe('redis-server --port 6380 &');
    const starts = steps.slice(1, 3).map((step) => /^npm start -- --store redis:\/\/127\.0\.0\.1:6380 --port (\d+) &$/.exec(step.command));
    expect(starts.every(Boolean)).toBe(true);
    const mockPorts = starts.map((match) => (match as RegExpExecArray)[1] as string);
    const curls = steps.slice(3);
    expect(curls.length).toBeGreaterThanOrEqual(3);
    for (const step of curls) expect(step.command).toMatch(/^curl /);
    expect(curls.every((step) => step.expected)).toBe(true);

    // On free ports rather than the written ones, which may be taken here.
    const ports = new Map<string, string>();
    for (const port of ['6380', ...mockPorts]) ports.set(port, String(await freePort()));
    const local = (command: string): string => command.replace(/\b(6380|\d{4,5})\b/g, (port) => ports.get(port) ?? port);
    // The mock's own settings from this shell would change what the lines do.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MOCK_|PORT$|HOST$|LOG_LEVEL$)/.test(name)));
    const running: ReturnType<typeof background>[] = [];
    const redisDir = mkdtempSync(join(tmpdir(), 'readme-redis-'));
    try {
      // Redis in a directory of its own, so a snapshot it writes on exit lands there, not in the repository.
      const redis = background(local((steps[0] as { command: string }).command.replace(/ &$/, '')).replace(/^redis-server/, REDIS_SERVER_PATH as string), redisDir, env);
      running.push(redis);
      await until(() => /Ready to accept connections/.test(redis.output()), `redis-server:\n${redis.output()}`, PATIENT_MS);
      // npm start runs the dist/ that `npm test` built (no compile of its own).
      const mocks = steps.slice(1, 3).map((step) => background(local(step.command.replace(/ &$/, '')), ROOT, env));
      running.push(...mocks);
      for (const mock of mocks) await until(() => /listening on http/.test(mock.output()), `npm start:\n${mock.output()}`, PATIENT_MS);

      for (const step of curls) {
        const { code, output } = await run('sh', ['-c', local(step.command)], { cwd: ROOT, env });
        expect(code, step.command).toBe(0);
        expect(output.trim(), step.command).toMatch(step.expected as RegExp);
      }
      // And every further create, through either process, is seen alike by both.
      const urls = mockPorts.map((port) => `http://127.0.0.1:${ports.get(port)}`);
      for (let id = 2; id <= 21; id++) expect((await create(urls[id % 2] as string, id, `plant ${id}`)).status).toBe(200);
      const [first, second] = await Promise.all(urls.map(async (url) => (await listing(url)).text));
      expect(first).toBe(second);
      expect(listedIds(first as string)).toEqual(Array.from({ length: 21 }, (_, i) => String(i + 1)));
    } finally {
      for (const started of running.reverse()) await started.stop();
      rmSync(redisDir, { recursive: true, force: true });
    }
  }, 300_000);
});
