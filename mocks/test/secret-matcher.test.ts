/**
 * The journal's masking reads a text once, and its automaton only where a secret may start: what
 * 1 150 cookies quoted in a 61 KB body cost is counted in characters the automaton reads (a work
 * count, never a time), against the text's length. Every occurrence is still found, also where
 * occurrences overlap or one secret's start is another's end, as a plain search finds them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretMatcher } from '../http/secret-matcher.js';

/** The positions a plain search covers: those of every occurrence of every secret. */
function plainCovered(text: string, secrets: readonly string[]): number[] {
  const covered = new Set<number>();
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) for (let i = at; i < at + secret.length; i++) covered.add(i);
  }
  return [...covered].sort((a, b) => a - b);
}

describe('SecretMatcher', () => {
  it('reads only the windows where a secret may start: 1 150 cookie values in a 61 KB body', () => {
    const values = Array.from({ length: 1150 }, (_, i) => `k${String(i).padStart(7, '0')}`);
    const body = JSON.stringify({ name: values.map((value) => `${value} ${'x'.repeat(43)}`).join(' ') });
    expect(body.length).toBeGreaterThan(60_000);
    const matcher = new SecretMatcher(values);
    expect(matcher.find(body)).toHaveLength(values.length);
    // Each value and the character after it, and a few windows the filter lets through by chance: not the 61 KB.
    expect(matcher.stepped).toBeLessThan(values.length * 9 * 2);
    const quiet = new SecretMatcher(values);
    expect(quiet.find('y'.repeat(60_000))).toEqual([]);
    expect(quiet.stepped).toBeLessThan(100);
  });

  it('covers what a plain search finds, in ordered stretches that do not overlap', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'é', '\u0301');
    const word = (min: number) => fc.array(alphabet, { minLength: min, maxLength: 9 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(word(1), { minLength: 1, maxLength: 6 }), word(0), (secrets, text) => {
        const runs = new SecretMatcher(secrets).find(text);
        for (let i = 1; i < runs.length; i++) expect((runs[i] as [number, number])[0]).toBeGreaterThanOrEqual((runs[i - 1] as [number, number])[1]);
        expect(runs.flatMap(([start, end]) => Array.from({ length: end - start }, (_, i) => start + i))).toEqual(plainCovered(text, secrets));
      }),
      { numRuns: 300 },
    );
  });
});
