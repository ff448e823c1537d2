/**
 * docs/contract-mutations.md lists every provider of providers/flaws.ts with the check that
 * catches it and every legal variant of providers/legal.ts: this keeps the tables and the
 * providers in step, both ways.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../model.js';
import { FLAWS } from './providers/flaws.js';
import { LEGAL } from './providers/legal.js';
import { NEXT_FLAWS, NEXT_LEGAL } from './providers/next-provider.js';

const DOC = readFileSync(new URL('../../docs/contract-mutations.md', import.meta.url), 'utf8');

/** The rows of the table under `heading`: its cells, by column. */
function rows(heading: string): string[][] {
  const section = DOC.split(/^## /m).find((part) => part.startsWith(heading)) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

const name = (cell: string | undefined): string => /^`([^`]+)`$/.exec(cell ?? '')?.[1] ?? '';

describe('docs/contract-mutations.md', () => {
  it('lists every single-flaw provider, and only those, with the check that catches it', () => {
    const table = rows('Single-flaw providers').map((cells) => [name(cells[0]), name(cells[3])]);
    expect(table.map(([provider]) => provider).sort()).toEqual(Object.keys(FLAWS).sort());
    for (const [provider, check] of table) {
      expect(CHECK_NAMES).toContain(check);
      expect(check, provider).toBe(FLAWS[provider as string]?.caughtBy);
    }
  });

  it('lists every legal variant, and only those, with what the report says', () => {
    const table = rows('Legal variants');
    expect(table.map((cells) => name(cells[0])).sort()).toEqual(Object.keys(LEGAL).sort());
    for (const cells of table) {
      const reports = LEGAL[name(cells[0])]?.reports;
      expect(cells[2]).toBe(reports ? `${reports.severity === 'info' ? 'provider choice' : 'warning'} in \`${reports.check}\`` : 'nothing');
    }
  });

  it('lists every next-version flaw with the check that catches it, and every next-version legal variant', () => {
    const section = DOC.split(/^## /m).find((part) => part.startsWith('The next version')) ?? '';
    const [flaws = '', legal = ''] = section.split('Legal variants of the next version');
    const cells = (text: string): string[][] =>
      text
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .map((line) =>
          line
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim()),
        );
    const table = cells(flaws).map((row) => [name(row[0]), name(row[2])]);
    expect(table.map(([provider]) => provider).sort()).toEqual(Object.keys(NEXT_FLAWS).sort());
    for (const [provider, check] of table) expect(check, provider).toBe(NEXT_FLAWS[provider as string]?.caughtBy);
    expect(
      cells(legal)
        .map((row) => name(row[0]))
        .sort(),
    ).toEqual(Object.keys(NEXT_LEGAL).sort());
  });

  it('holds at least 40 single-flaw providers over every class, and the legal variants issue 12 names', () => {
    expect(Object.keys(FLAWS).length).toBeGreaterThanOrEqual(40);
    expect(new Set(Object.values(FLAWS).map((f) => f.class))).toEqual(new Set(['strings', 'json-syntax', 'numbers', 'schema', 'auth', 'response', 'transport']));
    for (const variant of ['extra-response-fields', 'problem-json-except-400', 'pretty-printed', 'ascii-escaped', 'chunked', 'slow']) expect(Object.keys(LEGAL)).toContain(variant);
  });
});
