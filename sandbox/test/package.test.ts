/**
 * The image's runtime stage as a plain process (no engine needed): `npm pack`, the tarball
 * unpacked beside the lockfile with production dependencies only, exactly as the Dockerfile does;
 * then started with the Dockerfile's own ENTRYPOINT, CMD and ENV, and probed with its HEALTHCHECK.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRuntimeImage, REPO_ROOT } from './dockerfile.js';
import { run, runOk, startServer } from '../../mocks/test/processes.js';

const image = readRuntimeImage();
const work = mkdtempSync(join(tmpdir(), 'packed-'));
/** Stands for the image's WORKDIR. */
const app = join(work, 'app');
/** Stands for the image's volume. */
const volume = join(work, 'data');

/** A path of the image as it is here. */
function local(path: string): string {
  if (path.startsWith(`${image.workdir}/`)) return join(app, path.slice(image.workdir.length + 1));
  for (const mount of image.volumes) if (path.startsWith(`${mount}/`)) return join(volume, path.slice(mount.length + 1));
  return path;
}

/** The image's environment, listening on a free loopback port here. */
function imageEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(image.env)) env[name] = local(value);
  return { ...env, HOST: '127.0.0.1', PORT: '0', PRISM_PORT: '0', ...overrides };
}

/** The image's ENTRYPOINT + `args` (its CMD when none), as a command here. */
function entrypoint(args: string[] = image.cmd): [string, string[]] {
  const [command, ...rest] = image.entrypoint.map(local);
  return [command as string, [...rest, ...args]];
}

beforeAll(async () => {
  // `npm test` has just built dist/ (tsc); packing without `prepare` keeps this test from
  // rewriting dist/ under the feet of the tests that run dist/start/cli.js meanwhile.
  await runOk('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: REPO_ROOT }, 120_000);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball in ${work}`);
  mkdirSync(app);
  mkdirSync(volume);
  await runOk('tar', ['-xzf', join(work, tarball), '-C', app, '--strip-components=1']);
  copyFileSync(join(REPO_ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
  await runOk('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app }, 240_000);
}, 480_000);

describe('the packed production install (the image without an engine)', () => {
  it('holds compiled code and its data files, and no sources, tsc or test tools', () => {
    for (const file of [
      'dist/mocks/cli.js',
      'dist/start/cli.js',
      'dist/mocks/stores/state-file.js',
      'dist/mocks/prism/cli.js',
      'spec/plant-store.openapi.yaml',
      'mocks/admin/inspector/index.html',
      'sandbox/entrypoint.sh',
      'sandbox/healthcheck.mjs',
    ]) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    for (const file of [
      'mocks/cli.ts',
      'dist/.tsbuildinfo',
      'dist/start/meta.json',
      'dist/sandbox/bundle.js',
      'dist/mocks/test',
      'node_modules/typescript',
      'node_modules/.bin/tsc',
      'node_modules/vitest',
      'node_modules/testcontainers',
    ]) {
      expect(existsSync(join(app, file)), file).toBe(false);
    }
  });

  it("starts with the image's ENTRYPOINT, CMD and ENV, passes its HEALTHCHECK, stores durably and stops on SIGTERM", async () => {
    const [command, args] = entrypoint();
    let mock = await startServer(command, args, { cwd: app, env: imageEnv() });
    const port = new URL(mock.url).port;
    expect(await (await fetch(`${mock.url}/__mock/health`)).json()).toMatchObject({ status: 'ok', store: { state: 'up', kind: 'state-file' } });
    const created = await fetch(`${mock.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id":9223372036854775807,"name":"Packed","tag":"prod"}',
    });
    expect(created.status).toBe(200);
    expect((await fetch(`${mock.url}/__mock/`)).headers.get('content-type')).toMatch(/^text\/html/);

    const [probe, ...probeArgs] = image.healthcheck.command.map(local);
    expect(await run(probe as string, probeArgs, { env: imageEnv({ PORT: port }) })).toMatchObject({ code: 0 });

    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
    expect((await run(probe as string, probeArgs, { env: imageEnv({ PORT: port }) })).code).not.toBe(0);

    // The state file lives in the volume: a new start has the plant.
    expect(existsSync(local(image.env.MOCK_STATE_FILE as string))).toBe(true);
    mock = await startServer(command, args, { cwd: app, env: imageEnv() });
    expect(await (await fetch(`${mock.url}/__mock/plants`)).text()).toBe('[{"id":9223372036854775807,"name":"Packed","tag":"prod"}]');
    mock.child.kill('SIGTERM');
    expect(await mock.exit).toBe(0);
  });

  it('runs the contract suite with `contract`, and the mock passes it', async () => {
    const mock = await startServer(...entrypoint(), { cwd: app, env: imageEnv({ MOCK_TOKENS: 'suite-token' }) });
    const junit = join(work, 'contract.xml');
    const [command, args] = entrypoint(['contract', '--base-url', mock.url, '--token', 'suite-token', '--junit', junit]);
    const suite = await run(command, args, { cwd: app, env: imageEnv() });
    expect(suite.code, suite.output).toBe(0);
    expect(existsSync(junit)).toBe(true);
  });

  it('runs the Prism mock with `prism`', async () => {
    const [command, args] = entrypoint(['prism', '--port', '0']);
    const prism = await startServer(command, args, { cwd: app, env: imageEnv() });
    const response = await fetch(`${prism.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id":1,"name":"Prism"}',
    });
    expect(response.status).toBe(200);
    // The image's HEALTHCHECK follows the mode: no mock on PORT, the Prism mock on PRISM_PORT.
    const [probe, ...probeArgs] = image.healthcheck.command.map(local);
    const prismPort = new URL(prism.url).port;
    expect(await run(probe as string, probeArgs, { env: imageEnv({ PRISM_PORT: prismPort }) })).toMatchObject({ code: 0 });
    prism.child.kill('SIGTERM');
    expect(await prism.exit).toBe(0);
    expect((await run(probe as string, probeArgs, { env: imageEnv({ PRISM_PORT: prismPort }) })).code).not.toBe(0);
  });
});
