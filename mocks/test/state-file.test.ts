/**
 * The durable store behind --state-file: what a 200 promises survives kill -9, a torn tail costs
 * only itself, damaged bytes in the middle cost only the records they hit (and say so), ids stay
 * exact, the file stays proportional to the live plants, a failed write is answered 500 with the
 * id given back, and only one mock at a time uses a file.
 */
import { appendFileSync, constants, mkdtempSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { exactInteger, parseExactJson } from '../../openapi/schema/exact-json.js';
import type { StoredRecord } from '../stores/store.js';
import { createMockServer, type MockServer } from '../server.js';
import { openStateFile, STATE_FILE_VERSION, type StateFileLogger, type StateFileOptions, type StateFileStore } from '../stores/state-file.js';
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

/** Collects what the store reports, by level. */
function recordingLogger(): StateFileLogger & { errors: string[]; warnings: string[]; infos: string[]; details: object[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const infos: string[] = [];
  const details: object[] = [];
  return {
    errors,
    warnings,
    infos,
    details,
    error: (detail, message) => void (errors.push(message), details.push(detail)),
    warn: (_details, message) => warnings.push(message),
    info: (_details, message) => infos.push(message),
  };
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

/**
 * A state file whose next fdatasync can be made to fail with EIO, as a failing disk would:
 * `failNextSync()` fails it at once; with `held`, the sync waits until the returned function is
 * called (so changes can queue behind it) and then fails.
 */
function failingDisk() {
  let failures: (() => Promise<void>)[] = [];
  const openFile = async (file: string) => {
    const handle = await open(file, constants.O_RDWR | constants.O_CREAT);
    const datasync = handle.datasync.bind(handle);
    handle.datasync = async () => {
      const failure = failures.shift();
      if (!failure) return datasync();
      await failure();
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    };
    return handle;
  };
  const failNextSync = ({ held = false } = {}): (() => void) => {
    let release: () => void = () => undefined;
    const released = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    failures = [...failures, () => released];
    return () => release();
  };
  return { openFile, failNextSync };
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
    const disk = failingDisk();
    const logger = recordingLogger();
    const mock = await startMock(await openStore(path, { openFile: disk.openFile, logger }));
    expect((await createPlant(mock, '{"id":1,"name":"kept"}')).status).toBe(200);
    const sizeBefore = statSync(path).size;

    disk.failNextSync();
    const failed = await createPlant(mock, '{"id":2,"name":"lost"}');
    const message = expectError(failed, 500);
    expect(message).toContain('could not keep this change (EIO)');
    expect(message).not.toContain(path); // where the state is goes to the log, never to a client
    expect(message).toContain('Nothing was stored');
    expect(message).not.toContain('bug in the mock');
    expect(statSync(path).size).toBe(sizeBefore); // the written bytes were cut off again
    expect(await listedPlantsText(mock)).toBe('[{"id":1,"name":"kept"}]');
    expect(logger.warnings.join('\n')).toMatch(/write failed/);
    // Health says the store cannot write (a full or failing disk refuses the next write too), until a write succeeds (issue 24).
    const down = await fetch(`${mock.url}/__mock/health`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', store: { state: 'down', kind: 'state-file' } });

    expect((await createPlant(mock, '{"id":2,"name":"second try"}')).status).toBe(200);
    expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
    await mock.close();
    const reopened = await openStore(path, { logger: recordingLogger() });
    expect(plantsIn(reopened)).toStrictEqual([plant(1n, 'kept'), plant(2n, 'second try')]);
  });

  it('undoes the changes queued behind a failed write too, since they were decided against it', async () => {
    const path = stateFile();
    const disk = failingDisk();
    const store = await openStore(path, { openFile: disk.openFile, logger: recordingLogger() });
    await createIn(store, plant(1n, 'kept'));
    const releaseSync = disk.failNextSync({ held: true });
    const created = createIn(store, plant(2n, 'lost'));
    const renamed = store.replace(PLANTS, recordOf(plant(1n, 'renamed')));
    await new Promise((resolve) => setImmediate(resolve)); // that batch is syncing now
    await new Promise((resolve) => setImmediate(resolve));
    const renamedAgain = store.replace(PLANTS, recordOf(plant(1n, 'renamed again'))); // decided against 'renamed'
    releaseSync();
    for (const change of [created, renamed, renamedAgain]) await expect(change).rejects.toThrow(/could not write the state file/);
    expect(plantsIn(store)).toStrictEqual([plant(1n, 'kept')]);
    expect(await createIn(store, plant(3n))).toBe('created');
    await store.close();
    expect(plantsIn(await openStore(path))).toStrictEqual([plant(1n, 'kept'), plant(3n)]);
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
    expect(logger.warnings[0]).toContain(`skipped a torn tail of ${torn.length} bytes (1 record(s) from byte ${good.length}`);
    expect(logger.errors).toEqual([]); // a crash artefact, not damage
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
    const liveBytes =
      50 *
      readFileSync(path, 'utf8')
        .split('\n')
        .find((line) => line.includes('"id":9000'))!.length;
    expect(statSync(path).size).toBeLessThan(Math.max(2 * liveBytes, 2048) + 200);
    const reopened = await openStore(path, { logger: recordingLogger() });
    expect(plantsIn(reopened).map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(9000 + i)));
    expect(readdirSync(join(path, '..')).filter((name) => name.includes('.compacting'))).toEqual([]);
  });
});

/* ----------------------------- damaged files ----------------------------- */

/** Where each line (record) of a state file starts; line 0 is the header. */
function lineStarts(content: Buffer): number[] {
  const starts = [0];
  for (let at = content.indexOf(0x0a); at !== -1 && at + 1 < content.length; at = content.indexOf(0x0a, at + 1)) starts.push(at + 1);
  return starts;
}

/** Flips one bit in the middle of line `line`'s JSON, as a bad sector or bit rot would; returns the line's bytes as they were damaged. */
function damageLine(path: string, line: number): { from: number; to: number; bytes: Buffer } {
  const content = readFileSync(path);
  const starts = lineStarts(content);
  const from = starts[line] as number;
  const to = (starts[line + 1] ?? content.length) as number;
  const at = from + 9 + Math.floor((to - 1 - from - 9) / 2);
  content[at] = (content[at] as number) ^ 0x04;
  writeFileSync(path, content);
  return { from, to, bytes: content.subarray(from, to) };
}

/** A state file holding plants 1..n, one create line each (line i holds plant i). */
async function fileWithPlants(n: number): Promise<string> {
  const path = stateFile();
  const store = await openStateFile(path);
  const outcomes = await Promise.all(Array.from({ length: n }, (_, i) => createIn(store, plant(BigInt(i + 1)))));
  expect(outcomes.every((outcome) => outcome === 'created')).toBe(true);
  await store.close();
  return path;
}

const ids = (from: number, to: number, except: number[] = []): bigint[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
    .filter((id) => !except.includes(id))
    .map(BigInt);

/** The copies of damaged bytes kept beside the state file. */
function corruptCopies(path: string): Buffer[] {
  const dir = join(path, '..');
  return readdirSync(dir)
    .filter((name) => name.includes('.corrupt-'))
    .map((name) => readFileSync(join(dir, name)));
}

/** Opens the file again and expects a clean start with exactly these plants. */
async function expectCleanStart(path: string, expected: bigint[]): Promise<StateFileStore> {
  const logger = recordingLogger();
  const store = await openStore(path, { logger });
  expect(plantsIn(store).map((p) => p.id)).toEqual(expected);
  expect(logger.errors).toEqual([]);
  expect(logger.warnings).toEqual([]);
  expect(store.damage).toBeUndefined();
  return store;
}

describe('a damaged state file', () => {
  it('keeps the 999 intact records around one damaged at record 500 of 1000, says what was lost and where, and is rewritten clean', async () => {
    const path = await fileWithPlants(1000);
    const damaged = damageLine(path, 500);
    const logger = recordingLogger();
    const store = await openStore(path, { logger });
    expect(plantsIn(store).map((p) => p.id)).toEqual(ids(1, 1000, [500]));
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toContain(`state file ${path} is damaged: 1 record(s) lost in 1 damaged region(s) in the middle of the file`);
    expect(logger.errors[0]).toContain(`bytes ${damaged.from}–${damaged.to - 1} (1 record(s): checksum mismatch)`);
    expect(logger.errors[0]).toContain('kept the 999 intact record(s)');
    expect(logger.errors[0]).toContain('the file was rewritten without the damage');
    expect(logger.details[0]).toMatchObject({ lostRecords: 1, damaged: [{ from: damaged.from, bytes: damaged.to - damaged.from, records: 1 }] });
    expect(store.damage).toBe(logger.errors[0]);
    expect(logger.warnings).toEqual([]);
    expect(corruptCopies(path)).toEqual([damaged.bytes]);
    await store.close();

    const reopened = await expectCleanStart(path, ids(1, 1000, [500]));
    expect(await createIn(reopened, plant(500n, 'again'))).toBe('created');
  });

  it('keeps everything between several damaged regions and lists each', async () => {
    const path = await fileWithPlants(1000);
    const regions = [damageLine(path, 100), damageLine(path, 101), damageLine(path, 400), damageLine(path, 800)];
    const logger = recordingLogger();
    const store = await openStore(path, { logger });
    expect(plantsIn(store).map((p) => p.id)).toEqual(ids(1, 1000, [100, 101, 400, 800]));
    const [first, second, third, fourth] = regions as [(typeof regions)[0], (typeof regions)[0], (typeof regions)[0], (typeof regions)[0]];
    expect(logger.errors[0]).toContain('4 record(s) lost in 3 damaged region(s)');
    expect(logger.errors[0]).toContain(`bytes ${first.from}–${second.to - 1} (2 record(s)`);
    expect(logger.errors[0]).toContain(`bytes ${third.from}–${third.to - 1} (1 record(s)`);
    expect(logger.errors[0]).toContain(`bytes ${fourth.from}–${fourth.to - 1} (1 record(s)`);
    expect(corruptCopies(path)).toEqual([Buffer.concat([first.bytes, second.bytes, third.bytes, fourth.bytes])]);
    await store.close();
    await expectCleanStart(path, ids(1, 1000, [100, 101, 400, 800]));
  });

  it('loses nothing when a newline is damaged: both records it joined are found again', async () => {
    const path = await fileWithPlants(20);
    const content = readFileSync(path);
    const newline = (lineStarts(content)[11] as number) - 1;
    content[newline] = 0x2a;
    writeFileSync(path, content);
    const logger = recordingLogger();
    const store = await openStore(path, { logger });
    expect(plantsIn(store).map((p) => p.id)).toEqual(ids(1, 20));
    expect(logger.errors[0]).toContain(`0 record(s) lost in 1 damaged region(s) in the middle of the file: bytes ${newline}–${newline} (0 record(s): a damaged newline)`);
    await store.close();
    await expectCleanStart(path, ids(1, 20));
  });

  it('keeps the intact records of a seed one of whose records is damaged, and says the seed lost one', async () => {
    const path = stateFile();
    const store = await openStore(path);
    expect(
      await seedIn(
        store,
        ids(1, 10).map((id) => plant(id)),
      ),
    ).toEqual({ created: 10 });
    await createIn(store, plant(11n));
    await store.close();
    damageLine(path, 5); // the seed's fifth record: plant 5

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    expect(plantsIn(reopened).map((p) => p.id)).toEqual(ids(1, 11, [5]));
    expect(logger.errors[0]).toContain('1 record(s) lost in 1 damaged region(s)');
    expect(logger.errors[0]).toContain('a seed of 10 record(s) into /plants lost 1 of them: the 9 intact one(s) are kept');
    await reopened.close();
    await expectCleanStart(path, ids(1, 11, [5]));
  });

  it('keeps wiped what a lost reset wiped: the records after it carry a later epoch', async () => {
    const path = stateFile();
    const store = await openStore(path);
    for (const id of ids(1, 5)) await createIn(store, plant(id, 'before the reset'));
    await store.reset();
    for (const id of ids(4, 8)) await createIn(store, plant(id, 'after the reset'));
    await store.close();
    damageLine(path, 6); // the reset

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    expect(plantsIn(reopened)).toStrictEqual(ids(4, 8).map((id) => plant(id, 'after the reset')));
    expect(logger.errors[0]).toContain('1 record(s) lost in 1 damaged region(s)');
    expect(logger.errors[0]).toContain('1 reset(s) were lost, so the 5 record(s) before stay wiped as the reset did');
    await reopened.close();
    await expectCleanStart(path, ids(4, 8));
  });

  it('applies records whose create or delete was lost by fixed rules, and reports each', async () => {
    const path = stateFile();
    const store = await openStore(path);
    for (const id of [1n, 2n, 3n]) await createIn(store, plant(id, 'created')); // lines 1-3
    expect(await store.replace(PLANTS, recordOf(plant(1n, 'replaced')))).toBe('replaced'); // line 4
    expect(await store.delete(PLANTS, '2')).toBe('deleted'); // line 5
    expect(await store.delete(PLANTS, '3')).toBe('deleted'); // line 6
    expect(await createIn(store, plant(3n, 'created again'))).toBe('created'); // line 7
    await store.close();
    for (const line of [1, 2, 6]) damageLine(path, line);

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    // 1: its create was lost, the replace brings it back; 2: created and deleted, both gone;
    // 3: its delete was lost, the later create wins.
    expect(plantsIn(reopened)).toStrictEqual([plant(1n, 'replaced'), plant(3n, 'created again')]);
    expect(logger.errors[0]).toContain('3 record(s) lost in 2 damaged region(s)');
    expect(logger.errors[0]).toContain('3 record(s) depended on lost ones and were applied by rule');
    expect(logger.details[0]).toMatchObject({
      dependentCount: 3,
      dependents: [{ kind: 'replace-restored-record' }, { kind: 'delete-of-missing-record' }, { kind: 'create-over-live-record' }],
    });
    await reopened.close();
    await expectCleanStart(path, [1n, 3n]);
  });

  it('keeps the records after a damaged header', async () => {
    const path = await fileWithPlants(10);
    damageLine(path, 0);
    const logger = recordingLogger();
    const store = await openStore(path, { logger });
    expect(plantsIn(store).map((p) => p.id)).toEqual(ids(1, 10));
    // The header is a record too; no plant was in it.
    expect(logger.errors[0]).toMatch(/1 record\(s\) lost in 1 damaged region\(s\) in the middle of the file: bytes 0–\d+ \(1 record\(s\): checksum mismatch\)/);
    await store.close();
    await expectCleanStart(path, ids(1, 10));
  });

  it('applies none of a seed cut off by the end of the file (a torn write, never answered), with a warning', async () => {
    const path = stateFile();
    const store = await openStore(path);
    await createIn(store, plant(100n));
    expect(
      await seedIn(
        store,
        ids(1, 10).map((id) => plant(id)),
      ),
    ).toEqual({ created: 10 });
    await store.close();
    const content = readFileSync(path);
    const seedStart = lineStarts(content)[2] as number;
    writeFileSync(path, content.subarray(0, lineStarts(content)[6])); // four of the ten seeded records

    const logger = recordingLogger();
    const reopened = await openStore(path, { logger });
    expect(plantsIn(reopened).map((p) => p.id)).toEqual([100n]);
    expect(logger.errors).toEqual([]);
    expect(logger.warnings[0]).toContain(`(4 record(s) from byte ${seedStart}`);
    expect(logger.warnings[0]).toContain('an incomplete seed of 10 record(s), 4 of them on disk, was never answered and is not applied');
    expect(statSync(path).size).toBe(seedStart);
    await createIn(reopened, plant(11n));
    await reopened.close();
    await expectCleanStart(path, [100n, 11n]);
  });

  it('reads format versions 1 and 2 and rewrites them as the current one', async () => {
    const line = (json: string): string => `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
    const version1 = stateFile();
    writeFileSync(
      version1,
      line('{"op":"header","format":"plant-store-mock-state","version":1}') +
        line('{"op":"create","id":9,"name":"wiped"}') +
        line('{"op":"reset"}') +
        line('{"op":"create","id":9223372036854775807,"name":"max","tag":"t"}') +
        line('{"op":"seed","plants":[{"id":2,"name":"b"}]}'),
    );
    const version2 = stateFile();
    writeFileSync(
      version2,
      line('{"op":"header","format":"plant-store-mock-state","version":2}') +
        line('{"op":"create","c":"/plants","key":"9","record":{"id":9,"name":"wiped"}}') +
        line('{"op":"reset"}') +
        line('{"op":"create","c":"/plants","key":"9223372036854775807","record":{"id":9223372036854775807,"name":"max","tag":"t"}}') +
        line('{"op":"seed","c":"/plants","records":[{"key":"2","record":{"id":2,"name":"b"}},{"key":"3","record":{"id":3,"name":"c"}}]}') +
        line('{"op":"delete","c":"/plants","key":"3"}'),
    );
    for (const path of [version1, version2]) {
      const logger = recordingLogger();
      const store = await openStore(path, { logger });
      expect(plantsIn(store)).toStrictEqual([plant(INT64_MAX, 'max', 't'), plant(2n, 'b')]);
      expect(logger.errors).toEqual([]);
      await store.close();
      expect(readFileSync(path, 'utf8').split('\n')[0]).toContain(`"version":${STATE_FILE_VERSION},"epoch":0`);
      await expectCleanStart(path, [INT64_MAX, 2n]);
    }
  });

  it('reads format version 3 and rewrites its header as 4 before appending a clear line, which a version 3 mock would take for damage', async () => {
    const line = (json: string): string => `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
    const path = stateFile();
    writeFileSync(
      path,
      line('{"op":"header","format":"plant-store-mock-state","version":3,"epoch":0}') +
        line('{"op":"create","e":0,"c":"/plants","key":"1","record":{"id":1,"name":"a"}}') +
        line('{"op":"create","e":0,"c":"/pots","key":"5","record":{"id":5,"name":"p"}}'),
    );
    const logger = recordingLogger();
    let store = await openStore(path, { logger });
    expect(logger.errors).toEqual([]);
    expect(readFileSync(path, 'utf8').split('\n')[0]).toContain('"version":4,');
    await store.clear(PLANTS);
    await store.close();
    expect(readFileSync(path, 'utf8')).toContain('{"op":"clear","e":0,"c":"/plants"}');
    store = await openStore(path, { logger });
    expect(plantsIn(store)).toStrictEqual([]);
    expect(store.highestDeleted(PLANTS)).toBe(1);
    expect(store.count('/pots')).toBe(1);
    expect(logger.errors).toEqual([]);
  });

  it('refuses a file of a later format version than it reads, leaving it untouched', async () => {
    const line = (json: string): string => `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
    const path = stateFile();
    const content = line(`{"op":"header","format":"plant-store-mock-state","version":${STATE_FILE_VERSION + 1},"epoch":0}`);
    writeFileSync(path, content);
    await expect(openStateFile(path)).rejects.toThrow(new RegExp(`has format version ${STATE_FILE_VERSION + 1}; this mock reads versions 1, 2, 3, 4\\.`));
    expect(readFileSync(path, 'utf8')).toBe(content);
  });

  it('a clear whose write fails forgets nothing, and changes after it wait for it', async () => {
    const path = stateFile();
    const disk = failingDisk();
    const store = await openStore(path, { openFile: disk.openFile, logger: recordingLogger() });
    await createIn(store, plant(1n, 'kept'));
    await store.create('/plants/1/pots', recordOf(plant(3n, 'pot')), { collection: PLANTS, key: '1' });
    disk.failNextSync();
    const cleared = store.clear(PLANTS);
    // Decided after the clear: it waits for the clear, and is not undone with it.
    const created = createIn(store, plant(2n, 'after'));
    await expect(cleared).rejects.toThrow(/could not write the state file/);
    expect(await created).toBe('created');
    expect(plantsIn(store)).toStrictEqual([plant(1n, 'kept'), plant(2n, 'after')]);
    expect(store.count('/plants/1/pots')).toBe(1);
    expect(store.highestDeleted(PLANTS)).toBe(0);
    await store.clear(PLANTS);
    expect(plantsIn(store)).toStrictEqual([]);
    expect(store.count('/plants/1/pots')).toBe(0);
    await store.close();
    const reopened = await openStore(path, { logger: recordingLogger() });
    expect(plantsIn(reopened)).toStrictEqual([]);
    expect(reopened.count('/plants/1/pots')).toBe(0);
    expect(reopened.highestDeleted(PLANTS)).toBe(2);
    expect(reopened.highestDeleted('/plants/1/pots')).toBe(3);
  });

  it('compacts while deletes and replaces are queued without losing them or leaving a file that contradicts itself', async () => {
    const path = stateFile();
    let store: StateFileStore | undefined;
    let queued: Promise<unknown>[] | undefined;
    const openFile = async (file: string) => {
      const handle = await open(file, constants.O_RDWR | constants.O_CREAT);
      const datasync = handle.datasync.bind(handle);
      handle.datasync = async () => {
        // While the first batch of deletes is syncing, more changes queue up behind it; the
        // compaction that this batch makes due runs before they are written.
        if (queued === undefined && store && store.stats.entries >= 20) {
          queued = [store.delete(PLANTS, '11'), store.replace(PLANTS, recordOf(plant(12n, 'replaced'))), store.delete(PLANTS, '13')].map((outcome) => Promise.resolve(outcome));
        }
        return datasync();
      };
      return handle;
    };
    const logger = recordingLogger();
    store = await openStore(path, { openFile, logger, compactMinBytes: 1 });
    await Promise.all(ids(1, 20).map((id) => createIn(store as StateFileStore, plant(id))));
    await Promise.all(ids(1, 10).map((id) => (store as StateFileStore).delete(PLANTS, id.toString())));
    expect(queued).toBeDefined();
    expect(await Promise.all(queued as Promise<unknown>[])).toEqual(['deleted', 'replaced', 'deleted']);
    expect(store.stats.compactions).toBeGreaterThan(0);
    await store.close();
    const reopened = await expectCleanStart(path, [12n, ...ids(14, 20)]);
    expect(plantsIn(reopened)[0]).toStrictEqual(plant(12n, 'replaced'));
  });
});

/* ----------------------------- one mock per file ----------------------------- */

describe('the state file lock', () => {
  it('refuses a second store on the file while the first holds it, naming the holder, and lets one in once it is closed', async () => {
    const path = stateFile();
    const first = await openStateFile(path);
    await createIn(first, plant(1n));
    const refusal = openStateFile(path);
    await expect(refusal).rejects.toThrow(`Cannot use the state file ${path}: another mock is using it, process ${process.pid} on host ${hostname()}`);
    await expect(refusal).rejects.toThrow(`holds its lock ${path}.lock`);
    await first.close();
    const second = await openStore(path);
    expect(plantsIn(second).map((p) => p.id)).toEqual([1n]);
  });

  it('is one lock for every path to the file (a symlink)', async () => {
    const path = stateFile();
    await openStore(path);
    const link = join(path, '..', 'link.state');
    symlinkSync(path, link);
    await expect(openStateFile(link)).rejects.toThrow(`Cannot use the state file ${link}: another mock is using it, process ${process.pid}`);
  });

  it('compacts through a symlink into the file it points to, keeping the symlink', async () => {
    const path = stateFile();
    const link = join(path, '..', 'link.state');
    writeFileSync(path, '');
    symlinkSync(path, link);
    const store = await openStore(link, { compactMinBytes: 1 });
    for (const id of ids(1, 5)) await createIn(store, plant(id));
    await store.reset();
    await createIn(store, plant(6n));
    expect(store.stats.compactions).toBeGreaterThan(0);
    await store.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    await expectCleanStart(path, [6n]);
  });

  it('follows no symlink planted at the names it creates beside the state file (issue 24 #9)', async () => {
    const path = stateFile();
    const victim = join(path, '..', 'victim.txt');
    writeFileSync(victim, 'precious\n');
    // The names main once used: FILE.compacting (written, then renamed over the state file) and FILE.lock.
    symlinkSync(victim, `${path}.compacting`);
    const store = await openStore(path, { compactMinBytes: 1 });
    for (const id of ids(1, 5)) await createIn(store, plant(id));
    await store.reset();
    await createIn(store, plant(6n));
    expect(store.stats.compactions).toBeGreaterThan(0);
    await store.close();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    await expectCleanStart(path, [6n]);

    const locked = stateFile();
    symlinkSync(victim, `${locked}.lock`);
    await expect(openStateFile(locked)).rejects.toThrow(`its lock file ${locked}.lock cannot be opened`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('still holds after a compaction renamed a new file over the state file', async () => {
    const path = stateFile();
    const store = await openStore(path, { compactMinBytes: 1 });
    for (const id of ids(1, 5)) await createIn(store, plant(id));
    await store.reset();
    await createIn(store, plant(6n));
    expect(store.stats.compactions).toBeGreaterThan(0);
    await expect(openStateFile(path)).rejects.toThrow(/another mock is using it/);
  });
});

/* ----------------------------- the mock as a process ----------------------------- */

async function startMock(store: StateFileStore): Promise<MockServer> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', store });
  cleanups.push(() => mock.close());
  return mock;
}

/** Spawns what `npm start` runs (built by `npm test`) and waits for its listening line. */
const startCli = (args: string[]): Promise<Child> => startMockProcess(args);

async function killHard(mock: Child): Promise<void> {
  mock.child.kill('SIGKILL');
  await mock.exit;
}

const post = (url: string, path: string, body: string) => fetch(url + path, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body });

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

  it('refuses to start a second mock on the same file (exit 1, naming the file and the holder), and restarts at once after the first is killed -9', async () => {
    const path = stateFile();
    const first = await startCli(['--state-file', path]);
    expect((await post(first.url, '/plants', '{"id":1,"name":"kept"}')).status).toBe(200);

    const second = await run(process.execPath, [MOCK_CLI, '--port', '0', '--state-file', path]);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`plant-store-mock: Cannot use the state file ${path}: another mock is using it, process ${first.child.pid} on host ${hostname()}`);
    expect(second.output).not.toContain('listening on');
    expect((await post(first.url, '/plants', '{"id":2,"name":"still served"}')).status).toBe(200);

    // The kernel drops the lock with the process: no stale lock to wait out.
    await killHard(first);
    const restarted = await startCli(['--state-file', path]);
    expect(await listed(restarted.url)).toStrictEqual([plant(1n, 'kept'), plant(2n, 'still served')]);
  });

  it('of two mocks started at once on one file, one serves and the other exits 1, so none of 200 creates is lost (issue 13 lost half)', async () => {
    const path = stateFile();
    const started = await Promise.allSettled([startCli(['--state-file', path]), startCli(['--state-file', path])]);
    const serving = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = started.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
    expect(serving).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const mock = serving[0] as Child;
    expect(refused[0]?.message).toMatch(new RegExp(`exited with 1 before listening:[\\s\\S]*another mock is using it, process ${mock.child.pid} `));

    const acknowledged: bigint[] = [];
    for (let i = 1; i <= 200; i++) {
      const response = await post(mock.url, '/plants', `{"id":${i},"name":"plant ${i}"}`);
      if (response.status === 200) acknowledged.push(BigInt(i));
    }
    expect(acknowledged).toHaveLength(200);
    await killHard(mock);
    const restarted = await startCli(['--state-file', path]);
    expect((await listed(restarted.url)).map((p) => p.id)).toEqual(acknowledged);
  });

  it('says on stderr and in an error log line what a damaged file lost, and serves the rest', async () => {
    const path = await fileWithPlants(1000);
    const damaged = damageLine(path, 500);
    const mock = await startCli(['--state-file', path]);
    expect((await listed(mock.url)).map((p) => p.id)).toEqual(ids(1, 1000, [500]));
    const output = mock.output();
    expect(output).toContain(`plant-store-mock: state file ${path} is damaged: 1 record(s) lost in 1 damaged region(s) in the middle of the file: bytes ${damaged.from}–${damaged.to - 1}`);
    const errorLine = output.split('\n').find((line) => line.startsWith('{') && line.includes('is damaged'));
    expect(JSON.parse(errorLine as string)).toMatchObject({ level: 50, lostRecords: 1, path });
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
