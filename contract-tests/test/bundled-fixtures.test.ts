/**
 * The bundled fixtures fit the bundled spec: every case runs (none is skipped as unfit), a body
 * meant as valid is one by the spec's own validator for every id its kind may draw, and one
 * meant as rejected is not. A fixture edited out of step with the spec fails here, not silently
 * as a skipped case in a provider's run.
 */
import { describe, expect, it } from 'vitest';
import { bodyText, ID_RANGES, loadFixtures } from '../../fixtures/index.js';
import { fitFixture } from '../case-files.js';
import { isValidRequestBody, loadSuiteContract } from '../spec-contract.js';

const contract = loadSuiteContract();
const fixtures = loadFixtures();

describe('the bundled fixtures', () => {
  it('are there to check', () => {
    expect(fixtures.length).toBeGreaterThan(10);
  });

  it.each(fixtures.map((fixture) => [`${fixture.file}: ${fixture.name}`, fixture] as const))('%s fits the spec', (_name, fixture) => {
    expect(fitFixture(fixture, contract)).toBeUndefined();
    const ends = fixture.request.id === undefined ? [undefined] : ID_RANGES[fixture.request.id];
    for (const id of ends) {
      const text = bodyText(fixture.request, id);
      if (fixture.expect === 'rejected-body') expect(text !== undefined && isValidRequestBody(contract, text), `${fixture.name} with id ${id}`).toBe(false);
      else if (fixture.expect !== 'unsupported-media-type') expect(text !== undefined && isValidRequestBody(contract, text), `${fixture.name} with id ${id}`).toBe(true);
    }
  });
});
