/**
 * A large seed shares the Redis with other replicas (issue 24): a 1 MiB seed applied as one script
 * held Redis for about a second, every replica's commands waiting behind it (six together near the
 * 5 s command timeout). Applied in bounded chunks, another client's command waits for one chunk at
 * most (tested with 4 MiB). Real redis-server, the real mock process, a second client pinging
 * throughout. The bound is Redis's own account, never a time seen by a client (a busy machine's
 * pause of the test process would count in a PING's): the longest script in its SLOWLOG, as a
 * ratio to the time it spent running all of the seed's scripts (INFO commandstats).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProcess } from './processes.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

/** The durations, in microseconds, of the scripts (EVAL and EVALSHA) in Redis's SLOWLOG. */
async function loggedScriptMicroseconds(client: Redis): Promise<number[]> {
  const entries = (await client.call('SLOWLOG', 'GET', '-1')) as Array<[number, number, number, string[]]>;
  return entries.filter(([, , , args]) => /^eval(sha)?$/i.test(String(args[0]))).map(([, , usec]) => Number(usec));
}

/** Microseconds Redis has spent running scripts (EVAL and EVALSHA), from INFO commandstats. */
async function scriptMicroseconds(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/^cmdstat_(?:eval|evalsha):calls=\d+,usec=(\d+),/gm)) total += Number(match[1]);
  return total;
}

describe.skipIf(REDIS_SKIP_REASON)('a large seed on the shared Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lets another client through while it is applied: the longest PING is a small part of the seed', async () => {
    const mock = await startMockProcess(['--log-level', 'silent', '--store', server.url, '--store-prefix', 'seed-chunks', '--max-body', String(8 * 1024 * 1024)]);
    const plants = Array.from({ length: 64_000 }, (_, i) => ({ id: i + 1, name: `Fern ${i} ${'x'.repeat(40)}` }));
    const body = JSON.stringify(plants);
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    const other = new Redis(server.url, { lazyConnect: true });
    await other.connect();
    try {
      let seeding = true;
      let longest = 0;
      let pings = 0;
      const pinging = (async () => {
        while (seeding) {
          const started = performance.now();
          await other.ping();
          longest = Math.max(longest, performance.now() - started);
          pings++;
        }
      })();
      // Every command into the SLOWLOG, for the seed's duration.
      await other.call('CONFIG', 'SET', 'slowlog-log-slower-than', '0', 'slowlog-max-len', '100000');
      await other.call('SLOWLOG', 'RESET');
      const scriptsBefore = await scriptMicroseconds(other);
      const started = performance.now();
      const seeded = await fetch(`${mock.url}/__mock/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const seedMs = performance.now() - started;
      seeding = false;
      await pinging;
      expect(seeded.status).toBe(200);
      const scriptMs = ((await scriptMicroseconds(other)) - scriptsBefore) / 1000;
      expect((await fetch(`${mock.url}/__mock/plants?limit=1`)).headers.get('x-total-count')).toBe('64000');
      const scripts = await loggedScriptMicroseconds(other);
      const longestScriptMs = Math.max(...scripts) / 1000;
      console.info(
        `4 MiB seed: ${seedMs.toFixed(0)} ms, ${scriptMs.toFixed(1)} ms in ${scripts.length} Redis scripts, the longest ${longestScriptMs.toFixed(1)} ms; ${pings} PINGs meanwhile, the longest ${longest.toFixed(1)} ms`,
      );
      // One script for the whole seed: a PING waits for all of it. In chunks: for one chunk.
      expect(scripts.length).toBeGreaterThan(1);
      expect(longestScriptMs / scriptMs).toBeLessThan(0.5);
      expect(pings).toBeGreaterThan(0);
    } finally {
      other.disconnect();
    }
  });
});
