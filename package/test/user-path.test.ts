/**
 * A relative path the user typed is read from the directory they ran the command in (issue 37 §3):
 * `npm start -- --spec ./openapi.yaml` from the spec's own folder, where npm runs the script in
 * the package's root and says where the user was in INIT_CWD.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { userPath } from '../command-line.js';
import { PATIENT_MS } from '../../mocks/test/processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('userPath', () => {
  const packageJson = join(ROOT, 'package.json');

  it('under npm (cwd the package root, INIT_CWD where the user was): against INIT_CWD', () => {
    expect(userPath('./openapi.yaml', { INIT_CWD: '/home/me/api', npm_package_json: packageJson }, ROOT)).toBe('/home/me/api/openapi.yaml');
  });

  it('run directly, or by a process npm did not start in the package root: against the working directory', () => {
    expect(userPath('specs/x.yaml', {}, '/work/here')).toBe('/work/here/specs/x.yaml');
    // A child of `npm test` inherits INIT_CWD but runs where it was started.
    expect(userPath('x.yaml', { INIT_CWD: '/home/me', npm_package_json: packageJson }, '/tmp/elsewhere')).toBe('/tmp/elsewhere/x.yaml');
    expect(userPath('/abs/x.yaml', { INIT_CWD: '/home/me', npm_package_json: packageJson }, ROOT)).toBe('/abs/x.yaml');
  });

  it("`npm start -- --spec ./hello.yaml --port 0` run from the spec's own folder serves that spec", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-folder-'));
    writeFileSync(
      join(dir, 'hello.yaml'),
      ['openapi: 3.1.0', 'info: {title: Hello from my folder, version: "1"}', 'paths:', '  /hello:', '    get:', "      responses: {'200': {description: hi}}"].join('\n'),
    );
    // Its own process group, so that npm, the shell and node all end with the test.
    const child = spawn('npm', ['--prefix', ROOT, 'start', '--', '--spec', './hello.yaml', '--port', '0', '--host', '127.0.0.1'], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, INIT_CWD: undefined, npm_package_json: undefined },
    });
    let output = '';
    try {
      const url = await new Promise<string>((resolve, fail) => {
        const timer = setTimeout(() => fail(new Error(`no listening line within ${PATIENT_MS} ms:\n${output}`)), PATIENT_MS);
        const onData = (chunk: Buffer): void => {
          output += chunk;
          const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.on('exit', (code) => fail(new Error(`npm start exited (${code}) before listening:\n${output}`)));
      });
      const view = (await (await fetch(`${url}/__mock/spec`)).json()) as { title: string; source: string };
      expect(view.title).toBe('Hello from my folder');
      expect(view.source).toBe(join(dir, 'hello.yaml'));
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
