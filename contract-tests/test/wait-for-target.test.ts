/**
 * The command line waits, bounded, for the base URL to accept connections before it starts, and
 * says so: a recipe that starts the provider and the suite together (`npm start & npm run contract`)
 * no longer relies on the suite loading slower than the provider. A target that never answers is
 * still exit 2 with a clear message, once the wait is over.
 */
import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UnreachableTargetError, waitUntilReachable } from '../reachability.js';
import { runContract } from './contract-command.js';

const CLI = fileURLToPath(new URL('../../dist/contract-tests/cli.js', import.meta.url));

/** A loopback port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('waiting for the target', () => {
  it('resolves once the target starts listening after a refused attempt', async () => {
    const port = await freePort();
    const late = createServer((socket) => socket.end());
    try {
      const waited = await waitUntilReachable(new URL(`http://127.0.0.1:${port}/`), 30_000, (attempt) => {
        if (attempt === 1) late.listen(port, '127.0.0.1');
      });
      expect(waited.attempts).toBeGreaterThan(1);
    } finally {
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it('gives up when the budget is spent, saying it waited and what refused it', async () => {
    const port = await freePort();
    const error = await waitUntilReachable(new URL(`http://127.0.0.1:${port}/`), 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableTargetError);
    expect((error as Error).message).toMatch(new RegExp(`Cannot reach http://127\\.0\\.0\\.1:${port}/: ECONNREFUSED .*; waited 0\\.3 s \\(\\d+ connection attempts\\) and it never answered`));
  });

  it('--wait 0 tries once and exits 2 at once; PLANT_STORE_WAIT sets the budget; a bad value is a usage error', async () => {
    const port = await freePort();
    const once = await runContract(['--base-url', `http://127.0.0.1:${port}`, '--token', 'wait-token', '--wait', '0']);
    expect(once.output).not.toContain('Waiting for');
    expect(once.output).toMatch(new RegExp(`Cannot reach http://127\\.0\\.0\\.1:${port}/plants: ECONNREFUSED .*; tried once \\(--wait 0\\) and it never answered`));
    expect(once.code).toBe(2);
    const fromEnv = await runContract(['--base-url', `http://127.0.0.1:${port}`, '--token', 'wait-token'], { PLANT_STORE_WAIT: '1' });
    expect(fromEnv.output).toContain(`Waiting for http://127.0.0.1:${port}/ to accept connections (up to 1 s, --wait)`);
    expect(fromEnv.output).toMatch(/waited 1 s \(\d+ connection attempts\) and it never answered/);
    expect(fromEnv.code).toBe(2);
    const bad = await runContract(['--base-url', `http://127.0.0.1:${port}`, '--token', 'wait-token', '--wait', 'soon']);
    expect(bad.output).toMatch(/--wait/);
    expect(bad.code).toBe(2);
  });

  it('the command line says it waits, starts once the provider answers, and does not exit 2', async () => {
    const port = await freePort();
    const provider = createHttpServer((_request, response) => response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no"}'));
    const child = spawn(process.execPath, [CLI, '--base-url', `http://127.0.0.1:${port}`, '--token', 'wait-token', '--generated', '0', '--include-operation', 'createPlant'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PLANT_STORE_BASE_URL: '', PLANT_STORE_TOKEN: '' },
    });
    let output = '';
    const safety = setTimeout(() => child.kill('SIGKILL'), 120_000); // a safety limit, not a timing
    try {
      const code = await new Promise<number | null>((resolve) => {
        const read = (chunk: Buffer): void => {
          output += chunk.toString();
          if (output.includes('Waiting for') && !provider.listening) provider.listen(port, '127.0.0.1');
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        child.on('close', resolve);
      });
      expect(output).toContain(`Waiting for http://127.0.0.1:${port}/ to accept connections (up to 10 s, --wait)`);
      expect(output).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/ answered after \\d+ connection attempts; starting`));
      expect(code).not.toBe(2);
    } finally {
      clearTimeout(safety);
      if (provider.listening) {
        provider.closeAllConnections();
        await new Promise((resolve) => provider.close(resolve));
      }
    }
  }, 150_000);
});
