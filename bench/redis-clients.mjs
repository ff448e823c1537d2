// Which Redis client the Redis store uses: ioredis and node-redis driven with the store's create
// (one Lua script: HSETNX, INCR, ZADD, SADD), pipelining on in both (ioredis enableAutoPipelining;
// node-redis pipelines the commands of one event-loop turn by itself), against a real redis-server.
// A one-off measurement (figures in docs/benchmarks.md, "Choosing the Redis client"); node-redis
// is not a dependency, so install it for the run:
//   npm install --no-save redis@6 && taskset -c 1 node bench/redis-clients.mjs [rounds=5] [seconds=4]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createClient, defineScript } from 'redis';

const CREATE = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
redis.call('SADD', KEYS[4], ARGV[3])
return 1`;
const KEYS = ['b:records:/plants', 'b:order:/plants', 'b:seq', 'b:collections'];
const IN_FLIGHT = [1, 50, 500];

const clients = {
  async ioredis(port) {
    const client = new Redis({ port, enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    await client.connect();
    client.defineCommand('createRecord', { lua: CREATE, numberOfKeys: 4 });
    return { create: (key, json) => client.createRecord(...KEYS, key, json, '/plants'), call: (...args) => client.call(...args), close: () => client.quit() };
  },
  async 'node-redis'(port) {
    const createRecord = defineScript({
      SCRIPT: CREATE,
      NUMBER_OF_KEYS: 4,
      parseCommand(parser, key, json, collection) {
        parser.pushKeys(KEYS);
        parser.push(key, json, collection);
      },
      transformReply: (reply) => reply,
    });
    const client = createClient({ url: `redis://127.0.0.1:${port}`, scripts: { createRecord }, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    return { create: (key, json) => client.createRecord(key, json, '/plants'), call: (...args) => client.sendCommand(args), close: () => client.close() };
  },
};

async function redisCpuSeconds(client) {
  const info = await client.call('INFO', 'cpu');
  const value = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)[1]);
  return value('used_cpu_user') + value('used_cpu_sys');
}

async function measure(name, port, inFlight, seconds, ids) {
  const client = await clients[name](port);
  await client.call('FLUSHALL');
  const latencies = [];
  let created = 0;
  const end = performance.now() + seconds * 1000;
  const cpu = process.cpuUsage();
  const redisCpu = await redisCpuSeconds(client);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        const id = String(ids.next++);
        const sent = performance.now();
        const outcome = await client.create(id, `{"id":${id},"name":"Plant ${id}","tag":"bench"}`);
        latencies.push(performance.now() - sent);
        created += Number(outcome);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(cpu);
  const serverCpu = (await redisCpuSeconds(client)) - redisCpu;
  await client.close();
  if (created !== latencies.length) throw new Error(`${name}: ${created} created of ${latencies.length}`);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.floor(latencies.length * q)];
  return {
    name,
    inFlight,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    clientMicros: (clientCpu.user + clientCpu.system) / latencies.length,
    redisMicros: (serverCpu * 1e6) / latencies.length,
  };
}

const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 4);
const port = 20000 + Math.floor(Math.random() * 20000);
const dir = mkdtempSync(join(tmpdir(), 'redis-clients-'));
// Redis on core 0, this process (run it under taskset -c 1) on core 1.
const server = spawn('taskset', ['-c', '0', 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  await sleep(500);
  const ids = { next: 9223372036854000000n };
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['node-redis', 'ioredis'] : ['ioredis', 'node-redis'];
    for (const inFlight of IN_FLIGHT) for (const name of order) results.push(await measure(name, port, inFlight, seconds, ids));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log('| client | in flight | creates/s | p50 ms | p99 ms | client CPU µs/create | Redis CPU µs/create |\n|---|---|---|---|---|---|---|');
  for (const inFlight of IN_FLIGHT) {
    for (const name of Object.keys(clients)) {
      const runs = results.filter((result) => result.name === name && result.inFlight === inFlight);
      const m = (field, digits) => median(runs.map((run) => run[field])).toFixed(digits);
      console.log(`| ${name} | ${inFlight} | ${m('perSecond', 0)} | ${m('p50', 2)} | ${m('p99', 2)} | ${m('clientMicros', 1)} | ${m('redisMicros', 1)} |`);
    }
  }
} finally {
  server.kill('SIGTERM');
  await sleep(200);
  rmSync(dir, { recursive: true, force: true });
}
