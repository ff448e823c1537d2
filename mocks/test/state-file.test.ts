/**
 * The durable store behind --state-file: what a 200 promises survives kill -9, a torn or corrupt
 * tail costs only itself, ids stay exact, the file stays proportional to the live plants, and a
 * failed write is answered 500 with the id given back.
 */
import { appendFileSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exactInteger, parseExactJson } from '../../spec/exact-json.js';
import type { StoredRecord } from '../stores/store.js';
import { createMockServer, type MockServer } from '../server.js';
import { openStateFile, type StateFileLogger, type StateFileOptions, type StateFileStore } from '../stores/state-file.js';
import { createPlant, expectError, listedPlantsText } from './mock-under-test.js';
import { MOCK_CLI, run, startMockProcess, type Server as Child } from './processes.js';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stateFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'state-file-')), 'plants.state');
}

/** Collects what the store warns about. */
function recordingLogger(): StateFileLogger & { warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  return { warnings, infos, warn: (_details, message) => warnings.push(message), info: (_details, message) => infos.push(message) };
}

async function openStore(path: string, options: StateFileOptions = {}): Promise<StateFileStore> {
  const store = await openStateFile(path, options);
  cleanups.push(() => store.close());
  return store;
}

/** The path of a state file freshly written by the store (header only). */
async function newStateFile(): Promise<string> {
  const path = stateFile();
  await (await openStateFile(path)).close();
  return path;
}

interface StoredPlant {
  id: bigint;
  name: string;
  tag?: string;
}
const PLANTS = '/plants';
const plant = (id: bigint, name = `plant ${id}`, tag?: string): StoredPlant => (tag === undefined ? { id, name } : { id, name, tag });

/** A plant as the store keeps it: exact JSON under its id's digits. */
function recordOf({ id, name, tag }: StoredPlant): StoredRecord {
  return { key: id.toString(), json: `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}` };
}
const createIn = (store: StateFileStore, p: StoredPlant) => store.create(PLANTS, recordOf(p));
const seedIn = (store: StateFileStore, ps: StoredPlant[]) => store.seed(PLANTS, ps.map(recordOf));

/** Every plant the store holds, in creation order, ids exact. */
function plantsIn(store: StateFileStore): StoredPlant[] {
  const records: StoredRecord[] = [];
  for (let page = store.page(PLANTS, { limit: 1000 }); ; page = store.page(PLANTS, { after: page.next, limit: 1000 })) {
    records.push(...page.records);
    if (page.next === undefined) break;
  }
  return parseListing(`[${records.map((r) => r.json).join(',')}]`);
}

/** Plants listed by GET /__mock/plants, ids read exactly. */
function parseListing(text: string): StoredPlant[] {
  const items = parseExactJson(text) as Record<string, unknown>[];
  return items.map((item) => ({ ...item, id: exactInteger(item, 'id') as bigint }) as StoredPlant);
}

describe('state file store', () => {
  it('keeps creates, seeds and resets across a reopen, ids exact over the whole int64 range', async () => {
    const path = stateFile();
    const store = await openStore(path);
    expect(await createIn(store, plant(1n, 'wiped'))).toBe('created');
    await store.reset();
    const kept = [plant(INT64_MAX, 'max', 'm'), plant(INT64_MIN, 'min'), plant(2n ** 53n + 1n, 'past 2^53'), plant(7n, 'quote " and\nnewline', 'ü')];
    for (const p of kept.slice(0, 2)) expect(await createIn(store, p)).toBe('created');
    expect(await seedIn(store, kept.slice(2))).toEqual({ created: 2 });
    expect(await createIn(store, plant(INT64_MAX, 'again'))).toBe('duplicate');
    expect(await seedIn(store, [plant(8n), plant(2n ** 53n + 1n)])).toEqual({ duplicates: [(2n ** 53n + 1n).toString()] });
    await store.close();

    const reopened = await openStore(path);
    expect(plantsIn(reopened)).toStrictEqual(kept);
    // 2^53 and 2^53+1 are one double but two plants.
    expect(await createIn(reopened, plant(2n ** 53n))).toBe('created');
  });

  it('decides a change sent during a reset after the reset, in memory and on disk', async () => {
    const path = stateFile();
    const store = await openStore(path);
    await createIn(store, plant(1n, 'before'));
    const [, again, seeded] = await Promise.all([store.reset(), createIn(store, plant(1n, 'after')), seedIn(store, [plant(2n)])]);
    expect(again).toBe('created');
    expect(seeded).toEqual({ created: 1 });
    await store.close();
    expect(plantsIn(await openStore(path))).toStrictEqual([plant(1n, 'after'), plant(2n)]);
  });

  it('syncs a burst of concurrent creates in a few batches (group commit), all of them kept', async () => {
    const path = stateFile();
    const store = await openStore(path);
    const before = store.stats.syncs;
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => createIn(store, plant(BigInt(i)))));
    expect(outcomes.every((outcome) => outcome === 'created')).toBe(true);
    expect(store.stats.records).toBe(300);
    expect(store.stats.syncs - before).toBeLessThan(10);
    await store.close();
    expect((await openStore(path)).size).toBe(300);
  });

  it('decides duplicates atomically over HTTP: one 200 and 409s for 40 concurrent creates of one id', async () => {
    const path = stateFile();
    const mock = await startMock(await openStore(path));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => createPlant(mock, `{"id":9223372036854775807,"name":"n${i}"}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(39);
    await mock.close();
    expect((await openStore(path)).size).toBe(1);
  });

  it('answers 500 when the write fails, keeps nothing of it and gives the id back', async () => {
    const path = stateFile();
    let failSyncs = 0;
    const openFile = async (file: string) => {
      const handle = await open(file, constants.O_RDWR | constants.O_CREAT);
      const datasync = handle.datasync.bind(handle);
      handle.datasync = async () => {
        if (failSyncs > 0) {
          failSyncs -= 1;
          throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
        }
        return datasync();
      };
      return handle;
    };
    const logger = recordingLogger();
    const mock = await startMock(await openStore(path, { openFile, logger }));
    expect((await createPlant(mock, '{"id":1,"name":"kept"}')).status).toBe(200);
    const sizeBefore = statSync(path).size;

    failSyncs = 1;
    const failed = await createPlant(mock, '{"id":2,"name":"lost"}');
    const message = expectError(failed, 500);
    expect(message).toMatch(/could not write the state file .*EIO/);
    expect(message).toContain('Nothing was stored');
    expect(message).not.toContain('bug in the mock');
    expect(statSync(path).size).toBe(sizeBefore); // the written bytes were cut off again
    expect(await listedPlantsText(mock)).toBe('[{"id":1,"name":"kept"}]');
    expect(logger.warnings.join('\n')).toMatch(/write failed/);

    expect((await createPlant(mock, '{"id":2,"name":"second try"}')).status).toBe(200);
    await mock.close();
    const reopened = await openStore(path, { logger: recordingLogger() });
    expect(plantsIn(reopened)).toStrictEqual([plant(1n, 'kept'), plant(2n, 'second try')]);
  });

  it('loads everything before a torn last record, says how much it skipped, keeps a copy and appends after the good part', async () => {
    const path = stateFile();
    const store = await openStore(path);
    for (let i = 1n; i <= 5n; i++) await createIn(store, plant(i));
    await store.close();
    const good = readFileSync(path);
    const torn = '1a2b3c4d {"op":"create","id":6,"na';
    appendFileSync(path, torn);

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    expect(reopened.size).toBe(5);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain(`skipped a torn or corrupt tail of ${torn.length} bytes (1 record(s) from byte ${good.length}`);
    expect(logger.warnings[0]).toContain('loaded the 5 record(s)');
    expect(readFileSync(path)).toEqual(good);
    const copies = readdirSync(join(path, '..')).filter((name) => name.includes('.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(path, '..', copies[0] as string), 'utf8')).toBe(torn);

    await createIn(reopened, plant(6n, 'after the tear'));
    await reopened.close();
    const third = recordingLogger();
    expect(plantsIn(await openStore(path, { logger: third })).map((p) => p.id)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    expect(third.warnings).toEqual([]);
  });

  it('stops at a record whose checksum fails: nothing after it is loaded as data', async () => {
    const path = stateFile();
    const store = await openStore(path);
    for (let i = 1n; i <= 4n; i++) await createIn(store, plant(i, 'abc'));
    await store.close();
    const text = readFileSync(path, 'utf8');
    // Turn plant 3's name into something else without fixing its checksum.
    writeFileSync(path, text.replace('"id":3,"name":"abc"', '"id":3,"name":"abd"'));

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    expect(plantsIn(reopened).map((p) => p.id)).toEqual([1n, 2n]);
    expect(logger.warnings[0]).toMatch(/tail of \d+ bytes \(2 record\(s\) from byte \d+: checksum mismatch\)/);
  });

  it.each(['[{"id":1,"name":"a seed file"}]\n', '[{"id":1,"name":"a seed file without a final newline"}]'])(
    'refuses to take over a file it did not write, leaving it untouched: %s',
    async (content) => {
      const path = stateFile();
      writeFileSync(path, content);
      await expect(openStateFile(path)).rejects.toThrow(/is not a plant-store-mock state file.*will not overwrite it/);
      expect(readFileSync(path, 'utf8')).toBe(content);
    },
  );

  it('treats a header torn while the file was created as a new file', async () => {
    const path = stateFile();
    writeFileSync(path, readFileSync(await newStateFile(), 'utf8').slice(0, 20));
    const store = await openStore(path);
    expect(store.size).toBe(0);
    expect(await createIn(store, plant(1n))).toBe('created');
  });

  it('compacts a mostly dead file, also while creates are queued, and keeps it proportional to the live plants', async () => {
    const path = stateFile();
    const logger = recordingLogger();
    const store = await openStore(path, { compactMinBytes: 2048, logger });
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => createIn(store, plant(BigInt(round * 1000 + i)))));
      await store.reset();
    }
    // Creates queued behind the compaction that the last reset makes due.
    const last = await Promise.all(Array.from({ length: 50 }, (_, i) => createIn(store, plant(BigInt(9000 + i), 'live'))));
    expect(last.every((outcome) => outcome === 'created')).toBe(true);
    expect(store.stats.compactions).toBeGreaterThan(0);
    expect(logger.infos).toContain('state file compacted');
    await store.close();

    // 500 dead entries and 5 resets were written; what is left is about the 50 live plants.
    const liveBytes = 50 * readFileSync(path, 'utf8').split('\n').find((line) => line.includes('"id":9000'))!.length;
    expect(statSync(path).size).toBeLessThan(Math.max(2 * liveBytes, 2048) + 200);
    const reopened = await openStore(path, { logger: recordingLogger() });
    expect(plantsIn(reopened).map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(9000 + i)));
    expect(existsSync(`${path}.compacting`)).toBe(false);
  });
});

/* ----------------------------- the mock as a process ----------------------------- */

async function startMock(store: StateFileStore): Promise<MockServer> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', store });
  cleanups.push(() => mock.close());
  return mock;
}

/** Spawns dist/mocks/cli.js (built by `npm test`) and waits for its listening line. */
const startCli = (args: string[]): Promise<Child> => startMockProcess(args);

async function killHard(mock: Child): Promise<void> {
  mock.child.kill('SIGKILL');
  await mock.exit;
}

const post = (url: string, path: string, body: string) =>
  fetch(url + path, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });

async function listed(url: string): Promise<StoredPlant[]> {
  return parseListing(await (await fetch(`${url}/__mock/plants`)).text());
}

describe('--state-file (the mock as a process)', () => {
  // kill -9 proves each record left the process before its 200 (no buffering, no timer); the
  // fdatasync that also makes it survive a power cut is beyond what a test can cut.
  it('keeps every plant answered 200 when killed -9 in the middle of a burst of concurrent creates', async () => {
    const path = stateFile();
    const mock = await startCli(['--state-file', path]);
    const base = INT64_MAX - 100_000n; // ids a double cannot tell apart
    const answered: StoredPlant[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    let dead = false;
    void mock.exit.then(() => (dead = true));
    let cutOff = 0;
    const worker = async (): Promise<void> => {
      // Keep every worker's request in flight until the process is gone, so the kill lands mid-burst.
      while (next < 3000 && !dead) {
        const i = next++;
        const sent = plant(base + BigInt(i), `burst ${i}`, i % 3 === 0 ? `tag ${i}` : undefined);
        const body = `{"id":${sent.id},"name":${JSON.stringify(sent.name)}${sent.tag ? `,"tag":${JSON.stringify(sent.tag)}` : ''}}`;
        try {
          const response = await post(mock.url, '/plants', body);
          if (response.status === 200) answered.push(sent);
          else throw new Error(`unexpected ${response.status}: ${await response.text()}`);
        } catch (error) {
          if (!killed) throw error;
          cutOff += 1;
          return; // the connection died with the mock: that create may or may not be kept
        }
        if (answered.length === 400 && !killed) killed = killHard(mock);
      }
    };
    await Promise.all(Array.from({ length: 48 }, worker));
    await killed;
    expect(answered.length).toBeGreaterThanOrEqual(400);
    expect(cutOff).toBeGreaterThan(0); // the kill did land in the middle of the burst

    const restarted = await startCli(['--state-file', path]);
    const plants = await listed(restarted.url);
    const byId = new Map(plants.map((p) => [p.id, p]));
    expect(byId.size).toBe(plants.length); // no id twice
    for (const sent of answered) expect(byId.get(sent.id)).toStrictEqual(sent);
    // Nothing invented: whatever else is there was sent but not answered before the kill.
    for (const p of plants) expect(p.id >= base && p.id < base + BigInt(next)).toBe(true);
  });

  it('keeps a reset and a seed once answered, and applies --seed only to an empty state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-file-'));
    const path = join(dir, 'plants.state');
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, '[{"id":1,"name":"from the seed"}]');

    let mock = await startCli(['--state-file', path, '--seed', seedFile]);
    expect((await post(mock.url, '/plants', '{"id":2,"name":"created"}')).status).toBe(200);
    await killHard(mock);
    mock = await startCli(['--state-file', path, '--seed', seedFile]); // the seed's id 1 is there already
    expect(await listed(mock.url)).toStrictEqual([plant(1n, 'from the seed'), plant(2n, 'created')]);

    expect((await fetch(`${mock.url}/__mock/plants`, { method: 'DELETE' })).status).toBe(204);
    await killHard(mock);
    mock = await startCli(['--state-file', path]);
    expect(await listed(mock.url)).toStrictEqual([]);

    expect((await post(mock.url, '/__mock/plants', '[{"id":3,"name":"seeded over HTTP"}]')).status).toBe(200);
    await killHard(mock);
    mock = await startCli(['--state-file', path]);
    expect(await listed(mock.url)).toStrictEqual([plant(3n, 'seeded over HTTP')]);
  });

  it.each([
    ['a directory that does not exist', (dir: string) => join(dir, 'missing', 'plants.state'), /its directory .*missing does not exist/],
    ['a directory', (dir: string) => dir, /it is a directory/],
    ['a path below a regular file', (dir: string) => join(dir, 'file', 'plants.state'), /is not a directory/],
  ])('fails at start with a clear message for %s', async (_what, pathIn, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'state-file-'));
    writeFileSync(join(dir, 'file'), '');
    const path = pathIn(dir);
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0'], { env: { ...process.env, MOCK_STATE_FILE: path } });
    expect(code).toBe(1);
    expect(output).toContain(`Cannot use the state file ${path}`);
    expect(output).toMatch(message);
  });
});
