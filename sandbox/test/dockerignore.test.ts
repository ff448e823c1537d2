/**
 * .dockerignore means what it says: read as Docker reads it (each pattern matched from the build
 * context's root, `*` within one path segment, `**` across any number, a match on a directory
 * excluding what is inside it), local logs, packed tarballs and .env files are left out wherever
 * they are, and every file the image needs (the sources the build stage compiles, the entrypoint,
 * the health check) is sent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const patterns = readFileSync(new URL('.dockerignore', ROOT), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** A pattern as Docker's matcher reads it (github.com/moby/patternmatcher): a whole-path match. */
function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` is any number of directories, none included; a trailing `**` anything.
      source += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether Docker leaves `path` out of the context: a pattern matches it or one of its directories (no `!` rules here). */
function ignored(path: string): boolean {
  expect(patterns.some((pattern) => pattern.startsWith('!'))).toBe(false);
  const segments = path.split('/');
  const prefixes = segments.map((_, index) => segments.slice(0, index + 1).join('/'));
  return patterns.some((pattern) => prefixes.some((prefix) => toRegExp(pattern).test(prefix)));
}

describe('.dockerignore', () => {
  it('leaves out logs, tarballs, .env files and installs wherever they are', () => {
    for (const path of [
      'npm-debug.log',
      'sandbox/mock.log',
      'bench/results/run.json',
      'plant-store-mock-0.1.0.tgz',
      'examples/frontend/app.tgz',
      '.env',
      'sandbox/.env.local',
      'node_modules/x/index.js',
      'examples/frontend/node_modules/x.js',
      'dist/mocks/server.js',
    ]) {
      expect(ignored(path), path).toBe(true);
    }
  });

  it('sends what the image is built from', () => {
    for (const path of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'sandbox/entrypoint.sh',
      'sandbox/healthcheck.mjs',
      'sandbox/bundle.ts',
      'mocks/server.ts',
      'mocks/admin/inspector/inspector.js',
      'spec/plant-store.openapi.yaml',
      'fixtures/cases/accepted.json',
    ]) {
      expect(ignored(path), path).toBe(false);
    }
  });
});
