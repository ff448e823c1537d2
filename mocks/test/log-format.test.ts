/**
 * The mock's log lines as people and programs read them (issue 23): on a terminal, pino-pretty's
 * lines (`[12:00:01.234] INFO: request GET /plants 200 1 ms`); through a pipe, one JSON object a
 * line. The terminal is a real pseudo-terminal: util-linux's `script` runs `npm start`'s command.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MOCK_CLI, PATIENT_MS, startMockProcess } from './processes.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');

/** Resolves with the output once `pattern` matches it (colours and carriage returns removed). */
function outputMatching(read: () => string, subscribe: (listener: () => void) => void, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${pattern} within ${PATIENT_MS} ms:\n${read()}`)), PATIENT_MS);
    const check = (): void => {
      const match = pattern.exec(plain(read()));
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    subscribe(check);
    check();
  });
}

describe('log lines', () => {
  it.skipIf(!SCRIPT)(`are readable lines on a terminal (run under ${SCRIPT ?? "util-linux's script, not installed here: skipped"})`, async () => {
    // `exec`: the shell script starts becomes the mock, so the mock is the terminal's process and ends with it.
    const child = spawn(SCRIPT as string, ['-qfec', `exec "${process.execPath}" "${MOCK_CLI}" --port 0`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const listeners: Array<() => void> = [];
    const exit = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const listener of listeners) listener();
    });
    try {
      const [, url] = await outputMatching(
        () => output,
        (listener) => listeners.push(listener),
        /\] INFO: listening on (http:\/\/[\d.:]+)\n/,
      );
      expect((await fetch(`${url}/plants`, { headers: { authorization: 'Bearer t' } })).status).toBe(405);
      await outputMatching(
        () => output,
        (listener) => listeners.push(listener),
        /\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request GET \/plants 405 [\d.]+ ms METHOD_NOT_ALLOWED\n/,
      );
      expect(plain(output)).not.toMatch(/^\{"level"/m);
    } finally {
      child.kill('SIGTERM');
      await exit;
    }
  });

  it('are JSON lines through a pipe', async () => {
    const mock = await startMockProcess();
    expect((await fetch(`${mock.url}/plants`, { headers: { authorization: 'Bearer t' } })).status).toBe(405);
    const line = await outputMatching(mock.output, (listener) => mock.child.stdout?.on('data', listener), /^\{.*"msg":"request".*\}$/m);
    expect(JSON.parse(line[0])).toMatchObject({ level: 30, method: 'GET', path: '/plants', status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(
      mock
        .output()
        .split('\n')
        .filter((l) => l.startsWith('[') && l.includes('INFO:')),
    ).toEqual([]);
  });
});
