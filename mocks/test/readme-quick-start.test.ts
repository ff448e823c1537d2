/**
 * README's quick start, then its contract line against that mock, run as printed (issue 23): the
 * suite passes, the mock started in the same terminal writes no request lines into the suite's report
 * (issue 40), and the signal `kill $!` sends to `npm start` stops the mock. Only the port differs:
 * PORT=0 picks a free one, which the contract line is then pointed at.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, startServer } from './processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The commands of README's quick-start block that runs the contract suite, comments and `&` dropped. */
function quickContract(): string[] {
  const blocks = [...readFileSync(`${ROOT}README.md`, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const block = blocks.find((text) => /^npm run contract -- --base-url http:\/\/127\.0\.0\.1:4010 /m.test(text) && /^npm start/m.test(text));
  if (!block) throw new Error('README has no quick-start block with npm start and npm run contract against http://127.0.0.1:4010');
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

describe("README's quick start, then its contract line", () => {
  it('passes against that mock as printed, and `kill $!` stops the mock', async () => {
    const [start, contract, stop] = quickContract();
    expect(start).toMatch(/^npm start( -- .*)? &$/);
    expect(stop).toBe('kill $!');
    const words = (start as string).replace(/ &$/, '').split(/\s+/);
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MOCK_|PORT$|HOST$|LOG_LEVEL$|PLANT_STORE_)/.test(name)));
    const mock = await startServer(words[0] as string, words.slice(1), { cwd: ROOT, env: { ...env, PORT: '0' } });
    const port = new URL(mock.url).port;
    const suite = await run('sh', ['-c', (contract as string).replace('127.0.0.1:4010', `127.0.0.1:${port}`)], { cwd: ROOT, env });
    expect(suite.output).toMatch(/^PASSED/m);
    expect(suite.code, suite.output).toBe(0);
    // What `kill $!` does: SIGTERM to npm, which passes it on to the mock.
    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
    // Hundreds of cases reached the mock, and none of them printed a line between the report's.
    expect(mock.output()).toContain('listening on');
    expect(mock.output()).not.toContain('"msg":"request"');
    await expect(fetch(`${mock.url}/__mock/health`)).rejects.toThrow();
  });
});
