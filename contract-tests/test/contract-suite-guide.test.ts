/**
 * The contract suite's guide (docs/contract-suite.md) stays true: its flags table names exactly the
 * CLI's flags, and its example case file is in the format (fixture-file.schema.json) and fits the bundled spec.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFixtureFile } from '../../fixtures/index.js';
import { fitFixture } from '../case-files.js';
import { contractCommand } from '../cli-options.js';
import { loadSuiteContract } from '../spec-contract.js';
import { FLAWS } from './providers/flaws.js';
import { LEGAL } from './providers/legal.js';

const section = readFileSync(new URL('../../docs/contract-suite.md', import.meta.url), 'utf8');

describe("the contract suite's guide", () => {
  it('lists exactly the flags the CLI takes', () => {
    const documented = [...section.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]).sort();
    const real = contractCommand()
      .options.map((option) => option.long as string)
      .filter((flag) => flag !== '--help')
      .sort();
    expect(documented).toEqual(real);
  });

  it('counts the mutation providers as they are', () => {
    expect(section).toContain(`the ${Object.keys(FLAWS).length} single-flaw\nproviders`);
    expect(section).toContain(`the ${Object.keys(LEGAL).length} legal variants`);
  });

  it('shows a case file in the format, one that fits the bundled spec', () => {
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] as string;
    const [recorded] = parseFixtureFile(example, "the guide's example");
    expect(recorded?.origin).toMatch(/journal/);
    expect(fitFixture(recorded as NonNullable<typeof recorded>, loadSuiteContract())).toBeUndefined();
  });
});
