/**
 * `--record DIR` on the stateful mock: each distinct exchange becomes a case of one file per run,
 * written atomically and bounded, loadable by the fixture loader, never holding a credential.
 * (Through the proxy, against a real provider and the contract suite: contract-tests/test/frontend-to-provider.test.ts.)
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadFixtures } from '../../fixtures/index.js';
import { RecordError } from '../admin/recorder.js';
import { createLogger } from '../http/logger.js';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';
import { PATIENT_MS, startMockProcess } from './processes.js';

const FRONTEND_TOKEN = 'frontend-secret-token-0123456789';
const auth = { authorization: `Bearer ${FRONTEND_TOKEN}` };
const post = (mock: MockServer, body: string, headers: Record<string, string> | null = auth) => send(mock, '/plants', body, { headers: headers ?? {}, noAuth: headers === null });

/** The one case file a run wrote in `dir` (and nothing else: no temporary file left behind). */
function recordedFile(dir: string): string {
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^recorded-\d{8}T\d{6}Z-[0-9a-f]{6}\.json$/);
  return join(dir, names[0] as string);
}

/** A mock recording into a new directory, its log lines kept for the test. */
async function recordingWithLog(): Promise<{ dir: string; log: string[]; mock: MockServer }> {
  const dir = mkdtempSync(join(tmpdir(), 'plant-record-'));
  const log: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(chunk.toString());
      done();
    },
  });
  return { dir, log, mock: await createMockServer({ port: 0, logger: createLogger('info', out), record: { dir } }) };
}

/** Waits for what the recorder does after the answer has left (the limit is a safety net, not a timing). */
async function waitFor(what: string, done: () => boolean): Promise<void> {
  await vi.waitUntil(done, { timeout: PATIENT_MS, interval: 50 }).catch(() => undefined);
  expect(done(), what).toBe(true);
}

describe('--record DIR on the stateful mock', () => {
  it('writes each distinct exchange once, while serving and at close, without any credential', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'plant-record-')), 'cases', 'nested'); // made when missing
    // No --tokens: the mock does not know the frontend's token, so only the recorder's own check keeps it out.
    const mock = await createMockServer({ port: 0, logLevel: 'silent', record: { dir } });
    try {
      expect((await post(mock, '{"id":9223372036854775000,"name":"Monstera","tag":"tropical"}')).status).toBe(200);
      expect((await post(mock, '{"id":9223372036854775001,"name":"Monstera","tag":"tropical"}')).status).toBe(200); // the same shape
      expect((await post(mock, '{"id":12,"name":5}')).status).toBe(400);
      expect((await post(mock, '{"id":13,"name":"No token"}', null)).status).toBe(401);
      expect((await post(mock, `{"id":14,"name":"${FRONTEND_TOKEN}"}`)).status).toBe(200); // the token in the body
      expect((await fetch(`${mock.url}/__mock/requests`)).status).toBe(200); // the mock's own route: never a case
      // Written while the mock serves (within a second of a new case); each read sees a whole file.
      let seen: string | undefined;
      await waitFor('a recording while the mock serves', () => {
        const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
        if (files.length) seen = readFileSync(join(dir, files[0] as string), 'utf8');
        return seen !== undefined;
      });
      expect(() => JSON.parse(seen as string)).not.toThrow();
    } finally {
      await mock.close();
    }
    const path = recordedFile(dir);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(FRONTEND_TOKEN);
    const cases = loadFixtures(path);
    expect(cases.map((c) => [c.expect, c.request.id ?? null, c.request.auth, c.request.body])).toEqual([
      ['accepted', 'near-int64-max', 'bearer', { json: { name: 'Monstera', tag: 'tropical' } }],
      ['rejected-body', 'safe-positive', 'bearer', { text: '{"id":{{id}},"name":5}' }],
      ['unauthenticated', 'safe-positive', 'none', { text: '{"id":{{id}},"name":"No token"}' }],
    ]);
    for (const c of cases) {
      expect(c.name).toMatch(/^recorded-\d{8}t\d{6}z-[0-9a-f]{6}-create-plant-/);
      expect(c.origin).toMatch(/^recording recorded-\d{8}T\d{6}Z-[0-9a-f]{6}\.json, exchange #\d+, \d{4}-/);
    }
    const { description } = JSON.parse(text) as { description: string };
    expect(description).toMatch(/^Requests frontends sent to the Plant Store mock, recorded from \S+ to \S+: 3 distinct requests/);
    expect(description).toContain('1 requests that carry their credential outside its header (in the body, the path or the query)');
  });

  it('stops at its bound and counts what came after; files of several runs load together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-record-'));
    for (const run of [1, 2]) {
      const mock = await createMockServer({ port: 0, logLevel: 'silent', record: { dir, maxCases: 3 } });
      try {
        for (let n = 0; n < 5; n++) expect((await post(mock, `{"id":${run * 100 + n},"name":"${'x'.repeat(n + 1)}"}`)).status).toBe(200);
      } finally {
        await mock.close();
      }
    }
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    for (const file of files) {
      const { description, cases } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { description: string; cases: unknown[] };
      expect(cases).toHaveLength(3);
      expect(description).toContain('2 requests after the file reached its bound (3 cases or 8388608 bytes)');
    }
    // Names carry their run: the directory loads as one set of cases.
    expect(loadFixtures(dir)).toHaveLength(6);
  });

  it('writes nothing when no request could be a case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-record-'));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', record: { dir } });
    await fetch(`${mock.url}/nowhere`);
    await mock.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('logs a write that fails, keeps serving, and writes again with the next case', async () => {
    const { dir, log, mock } = await recordingWithLog();
    const casesIn = (path: string): number => (JSON.parse(readFileSync(path, 'utf8')) as { cases: unknown[] }).cases.length;
    let path = '';
    try {
      expect((await post(mock, '{"id":1,"name":"a"}')).status).toBe(200);
      await waitFor('the first write', () => readdirSync(dir).some((name) => name.endsWith('.json')));
      path = recordedFile(dir);
      // A directory where the file goes: the next write fails (rename onto a directory).
      rmSync(path);
      mkdirSync(join(path, 'in-the-way'), { recursive: true });
      expect((await post(mock, '{"id":2,"name":5}')).status).toBe(400);
      await waitFor('the failure logged', () => log.join('').includes('could not record into'));
      expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
      rmSync(path, { recursive: true });
      expect((await post(mock, '{"id":3,"name":"No token"}', null)).status).toBe(401);
      await waitFor('a write after the failure', () => existsSync(path) && casesIn(path) === 3);
    } finally {
      await mock.close();
    }
    expect(casesIn(path)).toBe(3);
    expect(log.join('').match(/could not record into/g)).toHaveLength(1);
  });

  it('logs a failure while making the file, not an unhandled rejection, and writes with the next case', async () => {
    const { dir, log, mock } = await recordingWithLog();
    // The file's description names the spec's title: a title that cannot be read fails the text, as a bug would.
    const { contract } = mock.engine;
    const title = contract.title;
    let broken = true;
    Object.defineProperty(contract, 'title', {
      configurable: true,
      get: () => {
        if (broken) throw new TypeError('the title is unreadable');
        return title;
      },
    });
    try {
      expect((await post(mock, '{"id":1,"name":"a"}')).status).toBe(200);
      await waitFor('the failure logged', () => log.join('').includes('could not record into'));
      broken = false;
      expect((await post(mock, '{"id":2,"name":5}')).status).toBe(400);
      await waitFor('a write after the failure', () => readdirSync(dir).some((name) => name.endsWith('.json')));
    } finally {
      broken = false;
      await mock.close();
    }
    expect((JSON.parse(readFileSync(recordedFile(dir), 'utf8')) as { cases: unknown[] }).cases).toHaveLength(2);
  });

  it('writes through no symlink planted at the temporary name it once used (issue 24 #9)', async () => {
    const { dir, log, mock } = await recordingWithLog();
    const victim = join(mkdtempSync(join(tmpdir(), 'plant-victim-')), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const named = (): string | undefined => /recording every distinct exchange as a contract case in (\S+\.json)/.exec(log.join(''))?.[1];
    let file = '';
    try {
      await waitFor('the start-up line naming the file', () => named() !== undefined);
      file = named() as string;
      // The name main wrote the recording to before renaming it: predictable from the file and the pid (this process's: the mock runs in it).
      const planted = join(dir, `.${file.slice(dir.length + 1)}.${process.pid}.tmp`);
      symlinkSync(victim, planted);
      expect((await post(mock, '{"id":5,"name":"Ficus"}')).status).toBe(200);
    } finally {
      await mock.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(loadFixtures(file)).toHaveLength(1);
  });

  it('refuses a directory it cannot write, naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plant-record-')), 'not-a-dir');
    writeFileSync(file, 'x');
    await expect(createMockServer({ port: 0, logLevel: 'silent', record: { dir: file } })).rejects.toThrow(RecordError);
    await expect(createMockServer({ port: 0, logLevel: 'silent', record: { dir: join(file, 'below') } })).rejects.toThrow(`Cannot record into ${join(file, 'below')}`);
  });
});

describe('npm start -- --record DIR', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('takes MOCK_RECORD, says where it records, and writes the file when stopped by %s', async (signal) => {
    const dir = mkdtempSync(join(tmpdir(), 'plant-record-'));
    const mock = await startMockProcess([], { MOCK_RECORD: dir, MOCK_STATE_FILE: '' });
    expect(mock.output()).toContain(`recording every distinct exchange as a contract case in ${dir}/recorded-`);
    const answer = await fetch(`${mock.url}/plants`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"id":-9223372036854775808,"name":"Ficus"}' });
    expect(answer.status).toBe(200);
    mock.child.kill(signal);
    expect(await mock.exit).toBe(0);
    const [recorded] = loadFixtures(recordedFile(dir));
    expect(recorded).toMatchObject({ expect: 'accepted', request: { id: 'near-int64-min', body: { json: { name: 'Ficus' } } } });
    expect(mock.output()).toMatch(/recorded 1 contract case in .*recorded-.*\.json/);
  });

  it('exits 1 naming a directory it cannot write', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plant-record-')), 'taken');
    writeFileSync(file, 'x');
    await expect(startMockProcess(['--record', file])).rejects.toThrow(new RegExp(`exited with 1 before listening:[\\s\\S]*Cannot record into ${file}: it is not a directory`));
  });
});
