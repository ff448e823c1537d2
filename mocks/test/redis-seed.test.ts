/**
 * A large seed shares the Redis with other replicas (issue 24): a 1 MiB seed applied as one script
 * held Redis for about a second, every replica's commands waiting behind it (six together near the
 * 5 s command timeout). Applied in bounded chunks, another client's command waits for one chunk at
 * most (tested with 4 MiB). Real redis-server, the real mock process, a second client pinging
 * throughout. The bound is counted in work, never in time (a busy machine's pauses would count in
 * any time): the seed runs as many scripts as it has chunks (INFO commandstats), and no script
 * carries more than a chunk's records (Redis's SLOWLOG, set to log every command, with its arguments).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProcess } from './processes.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

/**
 * How many arguments each script (EVAL and EVALSHA) in Redis's SLOWLOG was called with. The log
 * keeps 32 of them and says how many more: "... (N more arguments)".
 */
async function loggedScriptArguments(client: Redis): Promise<number[]> {
  const entries = (await client.call('SLOWLOG', 'GET', '-1')) as Array<[number, number, number, string[]]>;
  return entries
    .filter(([, , , args]) => /^eval(sha)?$/i.test(String(args[0])))
    .map(([, , , args]) => {
      const more = /^\.\.\. \((\d+) more arguments\)$/.exec(String(args.at(-1)));
      return more ? args.length - 1 + Number(more[1]) : args.length;
    });
}

/** How many scripts (EVAL and EVALSHA) Redis has run, from INFO commandstats. */
async function scriptCalls(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+),/gm)) total += Number(match[1]);
  return total;
}

/** Records a seed's script holds at most (mocks/stores/redis.ts, SEED_CHUNK_RECORDS). */
const CHUNK_RECORDS = 500;

describe.skipIf(REDIS_SKIP_REASON)('a large seed on the shared Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is applied in scripts of a chunk each, another client answered meanwhile', async () => {
    const mock = await startMockProcess(['--log-level', 'silent', '--store', server.url, '--store-prefix', 'seed-chunks', '--max-body', String(8 * 1024 * 1024)]);
    const plants = Array.from({ length: 64_000 }, (_, i) => ({ id: i + 1, name: `Fern ${i} ${'x'.repeat(40)}` }));
    const body = JSON.stringify(plants);
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    const other = new Redis(server.url, { lazyConnect: true });
    await other.connect();
    try {
      let seeding = true;
      let pings = 0;
      const pinging = (async () => {
        while (seeding) {
          await other.ping();
          pings++;
        }
      })();
      // Every command into the SLOWLOG, for the seed's duration.
      await other.call('CONFIG', 'SET', 'slowlog-log-slower-than', '0', 'slowlog-max-len', '100000');
      await other.call('SLOWLOG', 'RESET');
      const callsBefore = await scriptCalls(other);
      const seeded = await fetch(`${mock.url}/__mock/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      seeding = false;
      await pinging;
      expect(seeded.status).toBe(200);
      expect((await fetch(`${mock.url}/__mock/plants?limit=1`)).headers.get('x-total-count')).toBe('64000');
      const calls = (await scriptCalls(other)) - callsBefore;
      // The log keeps the last 100 000 commands, those the scripts ran included: the last scripts' arguments.
      const scripts = await loggedScriptArguments(other);
      console.info(`4 MiB seed: ${calls} Redis scripts, the largest of the last ${scripts.length} with ${Math.max(...scripts)} arguments; ${pings} PINGs meanwhile`);
      // One script for the whole seed: a PING waits for all of it. In chunks: for one chunk, and the
      // seed takes as many scripts as its chunks (each record a key and its JSON, besides the script's own few).
      expect(Math.max(...scripts)).toBeLessThanOrEqual(2 * CHUNK_RECORDS + 8);
      expect(scripts.length).toBeGreaterThan(0);
      expect(calls).toBeGreaterThanOrEqual(64_000 / CHUNK_RECORDS);
      expect(pings).toBeGreaterThan(0);
    } finally {
      other.disconnect();
    }
  });
});
