/**
 * README's screenshots: every image it shows is in docs/images/, a PNG, and small enough to keep in
 * git (under 200 KB); every file there is shown. (The browser tests write the originals to
 * artifacts/browser/; the copies are refreshed by hand, never by a test.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("README's images", () => {
  const shown = [...README.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => ({ alt: m[1] as string, path: m[2] as string }));

  it('are PNGs in docs/images/ under 200 KB, each with a description', () => {
    expect(shown.length).toBeGreaterThan(0);
    for (const { alt, path } of shown) {
      expect(path).toMatch(/^docs\/images\/[a-z0-9-]+\.png$/);
      expect(alt.length, path).toBeGreaterThan(20);
      const file = new URL(path, ROOT);
      expect(statSync(file).size, path).toBeLessThan(200 * 1024);
      expect(readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE), path).toBe(true);
    }
  });

  it('are all there is in docs/images/', () => {
    expect(readdirSync(new URL('docs/images/', ROOT)).sort()).toEqual(shown.map(({ path }) => path.replace('docs/images/', '')).sort());
  });
});
