/**
 * The CLI as provider teams run it (`npm run contract` runs dist/contract-tests/cli.js, which
 * `npm test` builds first): flags and environment, exit codes 0/1/2, the printed seed, JUnit.
 * What is about the process (its exit status, the environment it reads, a usage error) runs the
 * real process; what is about the run's verdict (exit 1 and its words) runs the same command in
 * this process (contract-command.ts), a Node start-up less each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATIENT_MS } from '../../mocks/test/processes.js';
import { CommanderError } from 'commander';
import { contractCommand, parseContractArgs } from '../cli-options.js';
import { CHECK_NAMES } from '../model.js';
import { ContractUsageError, resolveOptions } from '../options.js';
import { runResolved } from '../runner.js';
import { runContract } from './contract-command.js';
import { FLAWS } from './providers/flaws.js';
import { startProvider, type ProviderOptions } from './providers/provider.js';

const CLI = fileURLToPath(new URL('../../dist/contract-tests/cli.js', import.meta.url));
const TOKEN = 'cli-token';

/** Runs the CLI to its end (bounded at 30 s); returns exit code and output. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const clean = { ...process.env };
  delete clean.PLANT_STORE_BASE_URL;
  delete clean.PLANT_STORE_TOKEN;
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 2 * PATIENT_MS); // a safety limit, not a timing
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

async function withProvider<T>(options: Omit<ProviderOptions, 'token'>, use: (url: string) => Promise<T>): Promise<T> {
  const provider = await startProvider({ token: TOKEN, ...options });
  try {
    return await use(provider.url);
  } finally {
    await provider.close();
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run contract', () => {
  it('exits 0 for a passing provider under a path prefix, from the environment, and writes JUnit', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'contract-')), 'reports', 'contract.xml');
    const { code, output } = await withProvider({ basePath: '/v1', gatewayHeader: ['x-api-key', 'k-123'] }, (url) =>
      runCli(['--junit', junit, '--header', 'X-Api-Key: k-123', '--generated', '5'], { PLANT_STORE_BASE_URL: `${url}/v1/`, PLANT_STORE_TOKEN: TOKEN }),
    );
    expect(output).toMatch(/^Seed \d+ \(pass --seed \d+ to reproduce/m);
    expect(output).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/v1\/plants/);
    expect(output).toMatch(/^PASSED: all 8 checks run passed/m);
    expect(output).not.toContain('k-123');
    expect(output).not.toContain(TOKEN);
    expect(code).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<testsuites name="Plant Store contract" tests="\d+" failures="0"/);
    expect(xml.match(/<testsuite /g)).toHaveLength(CHECK_NAMES.length);
  });

  it('exits 1 when a check fails, names it, and reproduces the seed it was given', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'contract-')), 'contract.xml');
    const { code, output } = await withProvider({ behaviour: FLAWS['bearer-token-not-checked']?.behaviour }, (url) =>
      runContract(['--base-url', url, '--token', TOKEN, '--seed', '31337', '--invalid-token', 'revoked-token-1', '--generated', '5', '--junit', junit]),
    );
    expect(output).toContain('Seed 31337');
    expect(output).toMatch(/^FAILED: 1 of 8 checks failed \(ignored_auth\)/m);
    expect(output).toContain('Authorization: Bearer revoked-token-1');
    expect(code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="ignored_auth"[^>]* failures="[1-9]/);
    expect(xml).toContain('<failure message="Answered 200 to a request with Authorization: Bearer revoked-token-1');
  });

  it('exits 1 for a provider that hangs, naming the timeout it was given, and stops sending after three timeouts', async () => {
    const { code, output } = await withProvider({ behaviour: FLAWS.hangs?.behaviour }, (url) => runContract(['--base-url', url, '--token', TOKEN, '--timeout', '200', '--generated', '2']));
    expect(output).toContain('No complete answer within 200 ms');
    expect(output).toMatch(/not sent: the provider had already timed out 3 times \(each after 200 ms\), so the suite stopped sending/);
    expect(code).toBe(1);
  });

  it('exits 2 for an unreachable target, naming the URL', async () => {
    const port = await closedPort();
    const { code, output } = await runCli(['--base-url', `http://127.0.0.1:${port}/api`, '--token', TOKEN, '--wait', '0']);
    expect(output).toContain(`Cannot reach http://127.0.0.1:${port}/api/plants`);
    expect(code).toBe(2);
  });

  it.each([
    [['--token', TOKEN], /A base URL is required/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--frobnicate'], /unknown option '--frobnicate'/],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const { code, output } = await runCli(args);
    expect(output).toMatch(message);
    expect(code).toBe(2);
  });
});

/** Every other usage error, decided before anything is sent (the CLI exits 2 on each). */
describe('contract flags', () => {
  const parse = (args: string[]) => resolveOptions(parseContractArgs(args, contractCommand().configureOutput({ writeErr: () => {} })));

  it.each([
    [['--base-url', 'http://127.0.0.1:1'], ContractUsageError, /A bearer token is required/],
    [['--base-url', 'ftp://example.test', '--token', TOKEN], ContractUsageError, /must be http or https/],
    [['--base-url', 'http://u:p@example.test', '--token', TOKEN], ContractUsageError, /cannot carry credentials/],
    [['--base-url', 'http://example.test/?tenant=1', '--token', TOKEN], ContractUsageError, /cannot carry a query/],
    [['--base-url', 'http://127.0.0.1:1', '--token', 'two words'], ContractUsageError, /visible ASCII without spaces/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--timeout', 'soon'], CommanderError, /--timeout <ms>.*expected a whole number/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--seed', '-4'], CommanderError, /--seed <n>/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--header', 'no colon'], CommanderError, /expected 'Name: value'/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--header', 'Authorization: Bearer x'], ContractUsageError, /sets authorization itself/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--invalid-token', TOKEN], ContractUsageError, /invalid token is the same as the token/],
    [['--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--checks', ' , '], CommanderError, /--checks <names>.*expected one or more values, separated by commas/],
  ])('rejects %j', (args, kind, message) => {
    expect(() => parse(args)).toThrow(kind);
    expect(() => parse(args)).toThrow(message);
  });

  it('are resolved once: the run uses the seed and the invalid token drawn when the CLI printed the seed', async () => {
    const provider = await startProvider({ token: TOKEN });
    try {
      const resolved = parse(['--base-url', provider.url, '--token', TOKEN, '--generated', '2']);
      const report = await runResolved(resolved);
      expect(report.seed).toBe(resolved.seed);
      const invalid = report.exchanges.find((x) => x.case.id === 'generated:auth-lower-case-scheme-invalid-token');
      expect(invalid?.request.headers.authorization).toBe(`bearer ${resolved.invalidToken}`);
    } finally {
      await provider.close();
    }
  });

  it('reads the environment, lets a flag win, and keeps a path prefix', () => {
    process.env.PLANT_STORE_BASE_URL = 'https://plants.example.test/v1/';
    process.env.PLANT_STORE_TOKEN = 'from-env';
    try {
      const fromEnv = parse([]);
      expect(fromEnv.endpoint('/plants').href).toBe('https://plants.example.test/v1/plants');
      expect(fromEnv.token).toBe('from-env');
      const flagged = parse(['--token', 'from-flag', '--header', 'X-Tenant: blue', '--header', 'X-Trace:  t1 ']);
      expect(flagged.token).toBe('from-flag');
      expect(flagged.headers).toEqual({ 'x-tenant': 'blue', 'x-trace': 't1' });
      expect(flagged.timeoutMs).toBe(10_000);
    } finally {
      delete process.env.PLANT_STORE_BASE_URL;
      delete process.env.PLANT_STORE_TOKEN;
    }
  });
});
