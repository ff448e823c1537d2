/**
 * The parsed value of a document kept between starts (openapi/document/parsed-text-cache.ts): read
 * back as parsed, never for another text or reader, never when JSON cannot hold it exactly, and
 * never at the cost of a start (an entry cut short, a directory that cannot be written).
 */
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocumentText } from '../load.js';
import { ParsedTextCache, READER } from '../parsed-text-cache.js';

const fresh = (): string => mkdtempSync(join(tmpdir(), 'parsed-cache-'));
const YAML = 'openapi: 3.1.0\ninfo: { title: Kept, version: "1" }\npaths:\n  /things/{id}:\n    get: { responses: { "200": { description: ok } } }\n';
const entries = (directory: string): string[] => readdirSync(directory).filter((name) => name.startsWith('parsed-'));

describe('the parsed-text cache', () => {
  it('keeps what the parse made and gives it back for the same text only', () => {
    const directory = fresh();
    const cache = new ParsedTextCache(directory);
    expect(cache.get(YAML)).toBeUndefined();
    const value = parseDocumentText(YAML, 'kept.yaml', cache);
    expect(entries(directory)).toHaveLength(1);
    expect(cache.get(YAML)).toEqual({ value });
    // Read from the entry, not parsed: what the file holds is what comes back.
    const [entry] = entries(directory);
    writeFileSync(join(directory, entry as string), JSON.stringify({ from: 'the cache' }));
    expect(parseDocumentText(YAML, 'kept.yaml', cache)).toEqual({ from: 'the cache' });
    expect(cache.get(`${YAML}# edited\n`)).toBeUndefined();
  });

  it("keeps nothing JSON would change: .nan, .inf, -0 stay the parse's own", () => {
    const cache = new ParsedTextCache(fresh());
    for (const text of ['a: .nan\n', 'a: [1, -.inf]\n', 'a: { b: -0 }\n']) {
      const value = parseDocumentText(text, 'numbers.yaml', cache);
      expect(cache.get(text)).toBeUndefined();
      expect(parseDocumentText(text, 'numbers.yaml', cache)).toEqual(value);
    }
  });

  it('parses again past an entry cut short (a start killed while writing), and writes it whole', () => {
    const directory = fresh();
    const cache = new ParsedTextCache(directory);
    const value = parseDocumentText(YAML, 'kept.yaml', cache);
    const file = join(directory, entries(directory)[0] as string);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 20));
    expect(parseDocumentText(YAML, 'kept.yaml', cache)).toEqual(value);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(value);
  });

  it('costs the cache, never the start, where the directory cannot be made (a file stands in its path)', () => {
    const parent = fresh();
    writeFileSync(join(parent, 'a-file'), '');
    const cache = new ParsedTextCache(join(parent, 'a-file', 'cache'));
    expect(parseDocumentText(YAML, 'kept.yaml', cache)).toMatchObject({ openapi: '3.1.0' });
    expect(cache.get(YAML)).toBeUndefined();
  });

  it('keeps the 32 newest documents', () => {
    const directory = fresh();
    const cache = new ParsedTextCache(directory);
    for (let i = 0; i < 40; i++) {
      cache.set(`n: ${i}\n`, { n: i });
      // Each entry older than the next by a second: the order does not hang on the file system's clock.
      const newest = readdirSync(directory).find((name) => readFileSync(join(directory, name), 'utf8') === JSON.stringify({ n: i }));
      utimesSync(join(directory, newest as string), 1_000_000 + i, 1_000_000 + i);
    }
    cache.set('n: 40\n', { n: 40 });
    expect(entries(directory)).toHaveLength(32);
    expect(cache.get('n: 40\n')).toEqual({ value: { n: 40 } });
    expect(cache.get('n: 9\n')).toEqual({ value: { n: 9 } });
    expect(cache.get('n: 8\n')).toBeUndefined();
  });

  it("names the readers' installed versions, so another reader never meets an old entry", () => {
    const require = createRequire(import.meta.url);
    expect(READER).toContain(`js-yaml ${(require('js-yaml/package.json') as { version: string }).version}`);
    expect(READER).toContain(`yaml ${(require('yaml/package.json') as { version: string }).version}`);
  });
});
