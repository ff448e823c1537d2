/**
 * What a JSON body costs the mock to read (issue 13, item 9): `npm run bench:json`.
 *
 * Starts the built mock (dist/mocks/cli.js) in its own process and, over HTTP, times sequential
 * POSTs of a few body shapes (a megabyte of `1e0` in an unknown field, the same as the whole body,
 * a megabyte of plain integers, a small NewPlant with an int64 id), each beside what `JSON.parse`
 * of the same text costs in this process. Then two clients send the megabyte of `1e0` in a loop
 * while a third asks the health route every 50 ms: how long a well-behaved client waits.
 * A measuring tool, not a test; figures go to docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../mocks/cli.js', import.meta.url));
const MEGABYTE = 1024 * 1024;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}
const round = (ms: number): number => Math.round(ms * 10) / 10;

async function startMock(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--max-body', String(4 * MEGABYTE), '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, MOCK_TOKENS: '', MOCK_ADMIN_TOKEN: '' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, fail) => {
    const timer = setTimeout(() => fail(new Error(`no listening line within 30 s:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        output = '';
        child.stdout.removeAllListeners('data');
        child.stdout.resume(); // the request lines are not needed
        resolve(match[1] as string);
      }
    });
    child.on('exit', (code) => fail(new Error(`the mock exited with ${code}:\n${output}`)));
  });
  return { url, stop: () => child.kill('SIGKILL') };
}

let nextId = 9_000_000_000_000_000_000n;
const fillTo = (bytes: number, item: string): string => Array.from({ length: Math.floor(bytes / (item.length + 1)) }, () => item).join(',');

/** Body shapes: each a function giving a fresh body (fresh ids, so nothing is a duplicate). */
const shapes: { name: string; body: () => string; expect: number }[] = [
  { name: 'small NewPlant, int64 id', body: () => `{"id":${nextId++},"name":"Monstera","tag":"tropical"}`, expect: 200 },
  { name: '1 MiB: unknown field of `1e0`, int64 id', body: () => `{"id":${nextId++},"name":"x","extra":[${fillTo(MEGABYTE, '1e0')}]}`, expect: 200 },
  { name: '1 MiB: unknown field of plain `1`, int64 id', body: () => `{"id":${nextId++},"name":"x","extra":[${fillTo(MEGABYTE, '1')}]}`, expect: 200 },
  { name: '1 MiB: unknown field of plain `1`, small id (no exact reading needed)', body: () => `{"id":${Number(nextId++ % 1_000_000n)},"name":"x","extra":[${fillTo(MEGABYTE, '1')}]}`, expect: 200 },
  { name: '1 MiB: the body is an array of `1e0`', body: () => `[${fillTo(MEGABYTE, '1e0')}]`, expect: 400 },
];

async function post(url: string, body: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 15);
  const mock = await startMock();
  try {
    console.log(`Node ${process.version}; ${rounds} sequential POSTs per shape after 3 warm-up; medians.`);
    console.log('| body | answer | mock, ms per request | JSON.parse here, ms | × JSON.parse |');
    console.log('|---|---:|---:|---:|---:|');
    for (const shape of shapes) {
      const times: number[] = [];
      const parses: number[] = [];
      let status = 0;
      for (let i = 0; i < rounds + 3; i++) {
        const body = shape.body();
        const parseStarted = performance.now();
        JSON.parse(body);
        const parseMs = performance.now() - parseStarted;
        const answer = await post(mock.url, body);
        status = answer.status;
        if (status !== shape.expect) throw new Error(`${shape.name}: expected ${shape.expect}, got ${status}`);
        if (i >= 3) {
          times.push(answer.ms);
          parses.push(parseMs);
        }
      }
      const ms = median(times);
      const parse = median(parses);
      console.log(`| ${shape.name} | ${status} | ${round(ms)} | ${round(parse)} | ${parse < 0.1 ? '–' : round(ms / parse)} |`);
    }

    // Two clients sending the megabyte of 1e0 as fast as answered; the health route meanwhile.
    const health = async (samples: number): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await (await fetch(`${mock.url}/__mock/health`)).arrayBuffer();
        times.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return times;
    };
    const idle = await health(40);
    const heavy = shapes[4] as (typeof shapes)[number];
    const body = heavy.body();
    let attacking = true;
    const attackers = [0, 1].map(async () => {
      let sent = 0;
      while (attacking) {
        await post(mock.url, body);
        sent++;
      }
      return sent;
    });
    const loaded = await health(60);
    attacking = false;
    const sent = (await Promise.all(attackers)).reduce((a, b) => a + b, 0);
    console.log('');
    console.log('| health route | median | p90 |');
    console.log('|---|---:|---:|');
    console.log(`| idle | ${round(median(idle))} ms | ${round(percentile(idle, 0.9))} ms |`);
    console.log(`| 2 clients sending 1 MiB of \`1e0\` (${sent} bodies) | ${round(median(loaded))} ms | ${round(percentile(loaded, 0.9))} ms |`);
  } finally {
    mock.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
