/**
 * A document's value kept as JSON between starts, by the text's digest: reading YAML is the largest
 * part of a large document's start (netlify's 150 kB of YAML, a fifth of its start: docs/benchmarks.md,
 * "Large documents"), and JSON.parse reads the same value about ten times sooner. The mock restarts on
 * the same spec all day (a developer's loop, `--watch`), so `npm start` keeps one beside Node's compile
 * cache (mocks/cli.ts); a library call keeps none unless given a directory.
 *
 * The value is the parse's, exactly: kept only when JSON holds it as it is (no NaN, no infinity, no
 * -0, which YAML can write and JSON cannot); looked up by the SHA-256 of the reader's version and
 * the text, so an edited spec, or another reader, never meets an old entry. Whatever goes wrong with the
 * directory (unwritable, full, an entry cut short by a kill) costs the cache, never the start: the
 * text is parsed as if there were none. At most ENTRIES documents are kept, the oldest going first.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Changed whenever what ./yaml-text.ts makes of a text may change (a reader's version, a rule of its own). */
export const READER = 'yaml-text 1; js-yaml 5.5.0; yaml 2.9.1';
const ENTRIES = 32;
const PREFIX = 'parsed-';

export class ParsedTextCache {
  readonly #directory: string;

  constructor(directory: string) {
    this.#directory = directory;
  }

  /** The value kept for `text`; undefined when none is (or it cannot be read). */
  get(text: string): { value: unknown } | undefined {
    try {
      return { value: JSON.parse(readFileSync(this.#file(text), 'utf8')) };
    } catch {
      return undefined;
    }
  }

  /** Keeps `value` for `text` when JSON holds it exactly; quietly does nothing when it cannot. */
  set(text: string, value: unknown): void {
    if (!jsonExact(value)) return;
    try {
      mkdirSync(this.#directory, { recursive: true });
      const file = this.#file(text);
      // Written aside and renamed: a start killed mid-write leaves no entry cut short under the real name.
      const aside = `${file}.${process.pid}.tmp`;
      writeFileSync(aside, JSON.stringify(value));
      renameSync(aside, file);
      this.#prune();
    } catch {
      // A cache that cannot be written is no cache; the start goes on.
    }
  }

  #file(text: string): string {
    return join(this.#directory, `${PREFIX}${createHash('sha256').update(READER).update('\u0000').update(text).digest('hex')}.json`);
  }

  /** The oldest entries past ENTRIES removed. */
  #prune(): void {
    const entries = readdirSync(this.#directory).filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'));
    if (entries.length <= ENTRIES) return;
    const dated = entries.map((name) => ({ name, at: statSync(join(this.#directory, name)).mtimeMs })).sort((a, b) => a.at - b.at);
    for (const { name } of dated.slice(0, dated.length - ENTRIES)) unlinkSync(join(this.#directory, name));
  }
}

/** Whether JSON.parse(JSON.stringify(value)) is `value`: every number finite and not -0 (YAML's parse makes nothing else JSON loses). */
function jsonExact(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'number') {
      if (!Number.isFinite(node) || Object.is(node, -0)) return false;
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) stack.push((node as Record<string, unknown>)[key]);
    } else if (node !== null && typeof node !== 'string' && typeof node !== 'boolean') return false;
  }
  return true;
}
