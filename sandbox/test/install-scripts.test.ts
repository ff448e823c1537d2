/**
 * npm 11 lists the dependencies whose install scripts `allowScripts` in package.json does not cover
 * (npm 12 skips them): every package the lockfile marks `hasInstallScript` has its entry, name-only
 * or pinned to the locked version, so `npm ci` on Node 24 has nothing to warn about and a new one
 * shows up here. docs/development.md, "Install scripts", says why each is allowed or denied.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};

describe("package.json's allowScripts", () => {
  it('covers every locked package with an install script', () => {
    const entries = manifest.allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version }));
    expect(withScripts.length).toBeGreaterThan(0);
    const uncovered = withScripts.filter(({ name, version }) => !(name in entries) && !(`${name}@${version}` in entries));
    expect(uncovered).toEqual([]);
  });

  it('holds no entry for a package that is not locked with an install script (npm install-scripts prune would drop it)', () => {
    const locked = new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .flatMap(([path, entry]) => {
          const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
          return [name, `${name}@${entry.version}`];
        }),
    );
    expect(Object.keys(manifest.allowScripts ?? {}).filter((key) => !locked.has(key))).toEqual([]);
  });
});
