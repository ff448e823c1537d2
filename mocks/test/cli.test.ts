/**
 * The mock as users run it (`npm start` runs dist/start/cli.js, which `npm test` builds first):
 * the listening line, flags and their environment equivalents, a seed file, graceful shutdown.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS } from '../engine/prefer.js';
import { MOCK_CLI, run, startMockProcess as startCli, startServer } from './processes.js';

const runCli = (args: string[]) => run(process.execPath, [MOCK_CLI, ...args], {});

/** A create delayed by `Prefer: delay`, sent with `Expect: 100-continue` so the test knows when the mock has it. */
function slowCreate(url: string, body: string, delayMs: number): { received: Promise<void>; answer: Promise<string> } {
  const { host, port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  let received!: () => void;
  const receivedPromise = new Promise<void>((resolve) => (received = resolve));
  const answer = new Promise<string>((resolve, fail) => {
    socket.on('data', (chunk) => {
      if (!text.includes('100 Continue') && (text + chunk.toString()).includes('100 Continue')) {
        socket.write(body);
        received();
      }
      text += chunk.toString();
    });
    socket.on('close', () => resolve(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '')));
    socket.on('error', fail);
  });
  socket.write(
    `POST /plants HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nPrefer: delay=${delayMs}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  return { received: receivedPromise, answer };
}

const create = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...headers },
    body,
  });

describe('npm start', () => {
  it('prints one listening line with the real port and logs one structured line per request', async () => {
    const mock = await startCli([]);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await create(mock.url, '{"id":1,"name":"x"}')).status).toBe(200);
    await expect.poll(() => mock.output()).toMatch(/"msg":"request"/);
    const requestLine = mock
      .output()
      .split('\n')
      .find((line) => line.includes('"msg":"request"')) as string;
    expect(JSON.parse(requestLine)).toMatchObject({ method: 'POST', path: '/plants', status: 200 });
  });

  it.each(['warn', 'error', 'silent'])('prints the listening line at --log-level %s too (scripts wait for it), and nothing else', async (level) => {
    const mock = await startServer(process.execPath, [MOCK_CLI, '--port', '0', '--log-level', level]);
    expect((await create(mock.url, '{"id":1,"name":"x"}')).status).toBe(200);
    const lines = mock.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ msg: `listening on ${mock.url}`, url: mock.url });
  });

  it('reads flags from the environment (MOCK_TOKENS, MOCK_MAX_BODY), flags winning over env', async () => {
    const mock = await startCli(['--max-body', '50'], { MOCK_TOKENS: 'a,b', MOCK_MAX_BODY: '10' });
    expect((await create(mock.url, '{"id":1,"name":"x"}', { authorization: 'Bearer b' })).status).toBe(200);
    expect((await create(mock.url, '{"id":2,"name":"x"}', { authorization: 'Bearer c' })).status).toBe(401);
    expect((await create(mock.url, `{"id":3,"name":"${'x'.repeat(60)}"}`, { authorization: 'Bearer a' })).status).toBe(413);
  });

  it('reads --allowed-hosts from MOCK_ALLOWED_HOSTS: that Host is answered, another refused', async () => {
    const mock = await startCli([], { MOCK_ALLOWED_HOSTS: 'mock.internal' });
    const healthWithHost = (host: string) =>
      new Promise<number>((resolve, fail) => {
        const target = new URL(`${mock.url}/__mock/health`);
        request({ host: target.hostname, port: target.port, path: target.pathname, headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', fail)
          .end();
      });
    expect(await healthWithHost('mock.internal:4010')).toBe(200);
    expect(await healthWithHost('evil.test:4010')).toBe(403);
  });

  it('starts with the plants of --seed FILE, ids exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'plants.json');
    writeFileSync(file, '[{"id":9223372036854775807,"name":"Seeded","tag":"s"}]');
    const mock = await startCli(['--seed', file]);
    expect(await (await fetch(`${mock.url}/__mock/plants`)).text()).toBe('[{"id":9223372036854775807,"name":"Seeded","tag":"s"}]');
    expect((await create(mock.url, '{"id":9223372036854775807,"name":"again"}')).status).toBe(409);
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--max-body', '-1'], /--max-body/],
    [['--log-level', 'loud'], /--log-level/],
    [['--frobnicate'], /unknown option/],
    [['--allowed-hosts', 'evil.test/x'], /--allowed-hosts/],
  ])('exits 2 with a clear message for %j', async (args, pattern) => {
    const { code, output } = await runCli(args);
    expect(code).toBe(2);
    expect(output).toMatch(pattern);
  });

  it('exits 1 naming the file when the seed file is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '[{"id":"one"}]');
    const { code, output } = await runCli(['--port', '0', '--seed', file]);
    expect(code).toBe(1);
    expect(output).toContain(file);
    expect(output).toContain('[0] id must be an integer');
  });

  // SIGHUP: the terminal running `npm start` closed (issue 24 #5).
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('on %s stops accepting, finishes in-flight requests and exits 0', async (signal) => {
    const mock = await startCli([]);
    const started = performance.now();
    const inFlight = slowCreate(mock.url, '{"id":7,"name":"slow"}', MAX_DELAY_MS);
    // The mock has the request (it said 100 Continue), so it is in flight, not a connection still opening.
    await inFlight.received;
    mock.child.kill(signal);
    expect(await inFlight.answer).toMatch(/^HTTP\/1\.1 200 /m);
    expect(await mock.exit).toBe(0);
    // The delay asked for is the control: cut short on shutdown rather than holding the process for its full length.
    expect(performance.now() - started).toBeLessThan(MAX_DELAY_MS);
    await expect(fetch(`${mock.url}/__mock/health`)).rejects.toThrow();
  });
});

describe('the first lines at start (issue 23 §3)', () => {
  it('logs one structured start line under a pipe: URL, inspector, spec, operations, token rule (never the tokens), store', async () => {
    const mock = await startCli(['--tokens', 'secret-one,secret-two']);
    const line = mock
      .output()
      .split('\n')
      .find((text) => text.includes('"msg":"started"')) as string;
    expect(JSON.parse(line)).toMatchObject({
      url: mock.url,
      inspector: `${mock.url}/__mock/`,
      spec: { title: expect.any(String) as string, version: expect.any(String) as string },
      operations: expect.any(Number) as number,
      tokens: '2 accepted credentials (--tokens)',
      store: 'memory (lost at exit)',
    });
    expect(mock.output()).not.toContain('secret-one');
  });

  it.skipIf(!existsSync('/usr/bin/script'))('prints plain lines to a terminal (run under script -qc)', async () => {
    const command = `${process.execPath} ${MOCK_CLI} --port 0 --state-file ${join(mkdtempSync(join(tmpdir(), 'start-')), 'state.json')}`;
    const mock = await startServer('/usr/bin/script', ['-qc', command, '/dev/null'], {});
    expect(mock.output()).toMatch(/Inspector: +http:\/\/127\.0\.0\.1:\d+\/__mock\//);
    expect(mock.output()).toMatch(/Store: +state file .*state\.json/);
    expect(mock.output()).toMatch(/Tokens: +any well-formed credential/);
  });
});
