/**
 * The log: the hand-built request line must be the line pino itself writes, and batched lines
 * must all reach stdout, the last ones too when the process exits at once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, LINE_BATCH_CHARS, LINE_WAIT_MS, requestLogger, type RequestLogEntry } from '../http/logger.js';
import { createMockServer } from '../server.js';
import { PATIENT_MS, run, startMockProcess } from './processes.js';
import { rawExchange } from './raw-http.js';

/** A stdout stand-in that keeps each write apart; `written` resolves at its first write. */
function capture(): { out: Writable; writes: string[]; written: Promise<void> } {
  const writes: string[] = [];
  let wrote: () => void = () => {};
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      wrote();
      done();
    },
  });
  return { out, writes, written };
}

const withoutTime = (line: string): string => line.replace(/"time":\d+/, '"time":0');

const entries: [string, RequestLogEntry][] = [
  ['a created plant', { method: 'POST', path: '/plants', status: 200, ms: 1.25, code: undefined }],
  ['a rejection with its code', { method: 'POST', path: '/plants', status: 409, ms: 0.5, code: 'DUPLICATE_ID' }],
  ['a path with quotes, backslashes, controls and unicode', { method: 'GET', path: '/a"b\\c\u0001🌿', status: 404, ms: 12, code: 'ROUTE_NOT_FOUND' }],
  ['a whole-number duration', { method: 'OPTIONS', path: '/plants', status: 204, ms: 0, code: undefined }],
];

describe('requestLogger', () => {
  it.each(entries)('writes %s exactly as pino would', async (_name, entry) => {
    const ours = capture();
    requestLogger(createLogger('info', ours.out))(entry, false);
    const theirs = capture();
    pino({ level: 'info', base: undefined }, theirs.out).info(entry, 'request');
    await ours.written;
    expect(ours.writes).toHaveLength(1);
    expect(withoutTime(ours.writes[0] as string)).toBe(withoutTime(theirs.writes[0] as string));
  });

  it('writes each of a run of requests as pino would, a method or path repeated or not', async () => {
    const run = [...entries, ...entries, ...entries.slice().reverse()].map(([, entry]) => entry);
    const ours = capture();
    const log = requestLogger(createLogger('info', ours.out));
    for (const entry of run) log(entry, false);
    const theirs = capture();
    const logger = pino({ level: 'info', base: undefined }, theirs.out);
    for (const entry of run) logger.info(entry, 'request');
    await ours.written;
    const lines = (writes: string[]): string[] => writes.join('').split('\n').filter(Boolean).map(withoutTime);
    expect(lines(ours.writes)).toEqual(lines(theirs.writes));
  });

  it('writes quiet requests at debug level only when debug is enabled', async () => {
    const entry = entries[0]?.[1] as RequestLogEntry;
    const atInfo = capture();
    requestLogger(createLogger('info', atInfo.out))(entry, true);
    const atDebug = capture();
    requestLogger(createLogger('debug', atDebug.out))(entry, true);
    const silent = capture();
    requestLogger(createLogger('silent', silent.out))(entry, false);
    await atDebug.written;
    expect(atInfo.writes).toEqual([]);
    expect(silent.writes).toEqual([]);
    expect(JSON.parse(atDebug.writes[0] as string)).toMatchObject({ level: 20, msg: 'request', path: '/plants' });
  });

  it('falls back to pino for a logger it did not make', async () => {
    const theirs = capture();
    const logger = pino({ level: 'info', base: { app: 'x' }, messageKey: 'message' }, theirs.out);
    requestLogger(logger)(entries[1]?.[1] as RequestLogEntry, false);
    expect(JSON.parse(theirs.writes[0] as string)).toMatchObject({ app: 'x', message: 'request', code: 'DUPLICATE_ID' });
  });
});

describe('createLogger', () => {
  it('writes the lines of a short while together, in one write once the wait is over', async () => {
    const { out, writes, written } = capture();
    const logger = createLogger('info', out);
    const logRequest = requestLogger(logger);
    const first = performance.now();
    logger.info('first');
    logRequest(entries[0]?.[1] as RequestLogEntry, false);
    logger.warn({ n: 3 }, 'third');
    expect(writes).toEqual([]);
    // Not at the end of the loop turn: the lines wait for others to share their write.
    await nextTurn();
    expect(writes).toEqual([]);
    await written;
    expect(performance.now() - first).toBeGreaterThanOrEqual(LINE_WAIT_MS - 1);
    expect(writes).toHaveLength(1);
    expect(
      (writes[0] as string)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg),
    ).toEqual(['first', 'request', 'third']);
    logger.info('flushed');
    logger.flush();
    expect(writes).toHaveLength(2);
  });

  it('writes at once, without waiting, once LINE_BATCH_CHARS of lines wait', () => {
    const { out, writes } = capture();
    const logRequest = requestLogger(createLogger('info', out));
    const entry = entries[0]?.[1] as RequestLogEntry;
    const lineLength = JSON.stringify({ level: 30, time: Date.now(), ...entry, msg: 'request' }).length + 1;
    const lines = Math.ceil(LINE_BATCH_CHARS / lineLength);
    for (let i = 0; i < lines - 1; i++) logRequest(entry, false);
    expect(writes).toEqual([]);
    logRequest(entry, false);
    expect(writes).toHaveLength(1);
    expect((writes[0] as string).split('\n').filter(Boolean)).toHaveLength(lines);
    expect((writes[0] as string).length).toBeGreaterThanOrEqual(LINE_BATCH_CHARS);
  });

  it('still writes the last lines when the process exits in the same turn', async () => {
    const logger = fileURLToPath(new URL('../../dist/mocks/http/logger.js', import.meta.url));
    const script = `const { createLogger } = await import(${JSON.stringify(logger)});
      const log = createLogger('info');
      for (let i = 0; i < 3; i++) log.info({ i }, 'last words');
      process.exit(0);`;
    const { code, output } = await run(process.execPath, ['--input-type=module', '-e', script], {});
    expect(code).toBe(0);
    expect(output.match(/"msg":"last words"/g)).toHaveLength(3);
  });
});

describe('BoundedOutput', () => {
  it('holds at most its backlog while nobody reads, then says how many writes it dropped', async () => {
    const logger = fileURLToPath(new URL('../../dist/mocks/http/logger.js', import.meta.url));
    // 40 turns of 64 KiB against a 256 KiB backlog, while the parent does not read the pipe.
    const script = `const { BoundedOutput } = await import(${JSON.stringify(logger)});
      const out = new BoundedOutput(process.stdout, 256 * 1024);
      const chunk = 'x'.repeat(1023) + '\\n';
      let held = 0;
      for (let turn = 0; turn < 40; turn++) {
        for (let i = 0; i < 64; i++) out.write(chunk);
        held = Math.max(held, process.stdout.writableLength);
        await new Promise((resolve) => setImmediate(resolve));
      }
      process.stderr.write('written, held at most ' + held + '\\n');
      await out.drained(20000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause();
    const held = await new Promise<number>((resolve, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        const match = /held at most (\d+)/.exec(chunk.toString());
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => fail(new Error(`exited with ${code} before writing`)));
    });
    expect(held).toBeLessThanOrEqual(256 * 1024);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout.resume();
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    const lines = output.split('\n').filter(Boolean);
    const warning = JSON.parse(lines.at(-1) as string);
    expect(warning).toMatchObject({ level: 40, msg: expect.stringContaining('dropped') });
    const kept = lines.length - 1;
    // Never all 2 560 writes; every write is kept or counted.
    expect(kept).toBeLessThan(40 * 64);
    expect(kept + warning.dropped).toBe(40 * 64);
  });
});

describe('the mock whose stdout nobody reads', () => {
  it('keeps answering, and writes the held lines once stdout is read again', async () => {
    const mock = await startMockProcess();
    // A paused stream stops reading its pipe: the kernel's pipe buffer and Node's fill, then stay full.
    mock.child.stdout?.pause();
    const requests = 3000; // about 400 KB of request lines, several times what the pipe and the stream buffer hold
    for (let i = 0; i < requests; i += 50) {
      const batch = Array.from({ length: 50 }, (_, j) =>
        fetch(`${mock.url}/plants`, {
          method: 'POST',
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
          body: JSON.stringify({ id: 700_000 + i + j, name: 'Unread' }),
          signal: AbortSignal.timeout(PATIENT_MS),
        }).then((response) => response.status),
      );
      expect(new Set(await Promise.all(batch))).toEqual(new Set([200]));
    }
    mock.child.stdout?.resume();
    const logged = (): number => mock.output().match(/"msg":"request"/g)?.length ?? 0;
    await vi.waitUntil(() => logged() >= requests, { timeout: PATIENT_MS, interval: 100 }).catch(() => undefined);
    expect(logged()).toBe(requests);
  });
});

describe('the log never holds a credential of the query', () => {
  const SECRET = 'sk_live_0123456789abcdef';

  it('logs the path and the query names of a request that failed unexpectedly, no value', async () => {
    const { out, writes } = capture();
    const mock = await createMockServer({ port: 0, logger: createLogger('info', out) });
    try {
      // The engine's hooks (registered under the same names): a validation hook that fails, as a bug in the mock would.
      mock.engine.handlers = {
        ...mock.engine.handlers,
        validationFail: () => {
          throw new TypeError('the hook failed');
        },
      };
      const response = await fetch(`${mock.url}/plants?access_token=${SECRET}&key=${SECRET}`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id":"x"}',
      });
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain(SECRET);
      // An asterisk-form target is logged without its query too.
      await rawExchange(mock.url, [`GET *?access_token=${SECRET} HTTP/1.1\r\nHost: ${new URL(mock.url).host}\r\nconnection: close\r\n\r\n`]);
    } finally {
      await mock.close();
    }
    const lines = writes
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const failure = lines.find((line) => line.msg === 'unexpected failure');
    expect(failure).toMatchObject({ method: 'POST', path: '/plants', query: 'access_token=…&key=…' });
    expect(lines.find((line) => line.msg === 'request' && line.method === 'GET')?.path).toBe('*');
    expect(writes.join('')).not.toContain(SECRET);
  });
});
