/**
 * The guides' screenshots: every image README.md or a docs/*.md page shows is in docs/images/, a
 * PNG, and small enough to keep in git (under 200 KB); every file there is shown. (The browser tests
 * write the originals to artifacts/browser/; the copies are refreshed by hand, never by a test.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const PAGES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the guides' images", () => {
  // Each image as a path from the repository's root, whichever page shows it.
  const shown = PAGES.flatMap((page) =>
    [...readFileSync(new URL(page, ROOT), 'utf8').matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => ({
      alt: m[1] as string,
      path: new URL(m[2] as string, new URL(page, ROOT)).href.slice(ROOT.href.length),
    })),
  );

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
    expect(readdirSync(new URL('docs/images/', ROOT)).sort()).toEqual([...new Set(shown.map(({ path }) => path.replace('docs/images/', '')))].sort());
  });
});
