/**
 * "Copy as curl" is shell-safe (issue 39, item 7): a line the inspector builds, pasted into real
 * bash, runs curl with exactly the request's parts as its arguments and runs nothing else, whatever
 * a client sent or a spec named — the method, the URL's path and query, header names and values,
 * the body, and the prefix kept before the shell's "$TOKEN". `curl` here is a stand-in on PATH that
 * writes its arguments to a file; every generated part mixes shell syntax with commands that would
 * create a marker file (`X-Key\`touch$IFS$MARK\``, the header name).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type CurlHeader = { name: string; value: string } | { name: string; prefix: string; token: true };
type CurlLine = (method: string, url: string, headers: CurlHeader[], body: string | undefined) => string;
// The page's own module, as the browser loads it (plain JavaScript, no build step).
const CURL_MODULE = new URL('../admin/inspector/curl.js', import.meta.url).href;
const { curlLine } = (await import(CURL_MODULE)) as { curlLine: CurlLine };

const dir = mkdtempSync(join(tmpdir(), 'curl-line-'));
const MARK = join(dir, 'ran');
const ARGS = join(dir, 'args');
// The stand-in: each argument followed by a NUL (no argument can hold one).
writeFileSync(join(dir, 'curl'), `#!/bin/sh\nprintf '%s\\0' "$@" > '${ARGS}'\n`);
chmodSync(join(dir, 'curl'), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What would run a command, or cut a word, in each quoting context bash has. */
const ATTACKS = [
  '`touch$IFS$MARK`',
  '$(touch $MARK)',
  '; touch $MARK',
  "'; touch $MARK; '",
  '"; touch $MARK; "',
  '\ntouch $MARK\n',
  '|touch $MARK',
  '&& touch $MARK',
  '$IFS',
  '${MARK}',
  '\\',
  "'\\''",
  '"$TOKEN"',
  '!!',
  '*',
  '~',
  '#',
  ' \\\n  ',
];
/** Any text but NUL (which no shell argument, header or journaled text can carry), salted with the attacks. */
const part = (minLength = 0) =>
  fc
    .array(fc.oneof(fc.constantFrom(...ATTACKS), fc.string({ unit: 'binary', maxLength: 6 })), { minLength, maxLength: 5 })
    .map((pieces) => pieces.join('').replaceAll('\0', ''))
    .filter((text) => text.length >= minLength);

const header = fc.oneof(fc.record({ name: part(1), value: part() }), fc.record({ name: part(1), prefix: part(), token: fc.constant(true as const) }));

/**
 * Runs each pasted line as `bash -c line`, one after another, with $TOKEN set for it: forked by one
 * small bash reading them from a pipe rather than by the test's own process, whose fork costs far
 * more (docs/benchmarks.md, "Where the CPU goes per file"). The line, its token and its exit
 * status travel NUL-terminated, as neither a line nor a token can hold a NUL.
 */
const PASTER = `while IFS= read -r -d '' token && IFS= read -r -d '' line; do
  TOKEN="$token" timeout 30 bash -c "$line" </dev/null >/dev/null 2>&1
  printf '%s\\0' "$?"
done`;
let paster: ReturnType<typeof spawn>;
let answered = '';
const waiting: Array<{ resolve: (status: string) => void; fail: (error: Error) => void }> = [];
beforeAll(() => {
  paster = spawn('bash', ['-c', PASTER], { cwd: dir, env: { PATH: `${dir}:/usr/bin:/bin`, MARK }, stdio: ['pipe', 'pipe', 'inherit'] });
  paster.stdout!.setEncoding('utf8').on('data', (text: string) => {
    answered += text;
    for (let end = answered.indexOf('\0'); end >= 0; end = answered.indexOf('\0')) {
      waiting.shift()?.resolve(answered.slice(0, end));
      answered = answered.slice(end + 1);
    }
  });
  paster.on('exit', () => {
    for (const waiter of waiting.splice(0)) waiter.fail(new Error('the bash running the pasted lines exited'));
  });
});
afterAll(() => {
  paster.stdin!.end();
});

/** Paste `line` into bash as a user would, with $TOKEN and $MARK set; the arguments curl got. */
async function paste(line: string, token: string): Promise<string[]> {
  rmSync(ARGS, { force: true });
  const status = await new Promise<string>((resolve, fail) => {
    waiting.push({ resolve, fail });
    paster.stdin!.write(`${token}\0${line}\0`);
  });
  expect(status, `bash -c exited ${status} on ${JSON.stringify(line)}`).toBe('0');
  return readFileSync(ARGS, 'utf8').split('\0').slice(0, -1);
}

describe('copy as curl, pasted into bash', () => {
  it("the issue's header name creates no file", async () => {
    const line = curlLine('POST', 'http://127.0.0.1:4010/plants', [{ name: 'X-Key`touch$IFS$MARK`', prefix: '', token: true }], undefined);
    expect(await paste(line, 't0k')).toEqual(['-i', '-X', 'POST', 'http://127.0.0.1:4010/plants', '-H', 'X-Key`touch$IFS$MARK`: t0k']);
    expect(existsSync(MARK)).toBe(false);
  });

  it('runs no command and gives curl every part as written', async () => {
    await fc.assert(
      fc.asyncProperty(part(1), part(), fc.array(header, { maxLength: 3 }), fc.option(part(), { nil: undefined }), part(), async (method, path, headers, body, token) => {
        const url = `http://127.0.0.1:4010/${path}`;
        const args = await paste(curlLine(method, url, headers, body), token);
        expect(existsSync(MARK)).toBe(false);
        const expected = ['-i', '-X', method, url];
        for (const h of headers) expected.push('-H', 'token' in h ? `${h.name}: ${h.prefix}${token}` : `${h.name}: ${h.value}`);
        if (body !== undefined) expected.push('--data-raw', body);
        expect(args).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
