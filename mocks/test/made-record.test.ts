/**
 * A create answers from the body it stored when the record is that body's text as sent, rather
 * than parsing the record again (mocks/engine/records.ts, MadeRecord). That shortcut is only
 * right if the body reads exactly as the record does: every answer made from it must be the
 * answer made from the record parsed back, whatever the numbers, the spacing and the properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../openapi/operations/collections.js';
import { exactPlanOf, parseExactJson } from '../../openapi/schema/exact-json.js';
import { keyOfBody, madeRecord, projection, recordValue } from '../engine/records.js';

/** Number literals as clients write them: the ones a double holds, and the ones it does not. */
const numberLiteral = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('0', '-0', '1.0', '2e3', '1E2', '0.1', '-7.25', '9007199254740993', '12345678901234567890', '1.0000000000000001', '-9223372036854775808'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);
const scalarLiteral = fc.oneof(
  numberLiteral,
  fc.string().map((s) => JSON.stringify(s)),
  fc.constantFrom('true', 'false', 'null'),
);
const literal = fc.oneof(
  scalarLiteral,
  fc.array(scalarLiteral, { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
  fc.dictionary(fc.constantFrom('a', 'b', 'c'), scalarLiteral, { maxKeys: 3 }).map(
    (o) =>
      `{${Object.entries(o)
        .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
        .join(',')}}`,
  ),
);
const NAMES = ['id', 'name', 'tag', 'price', 'notes', 'extra'];
/** A body's text: some of NAMES (id always), each once, spaced as a client may space them, on one line or several. */
const bodyText = fc
  .tuple(fc.subarray(NAMES.slice(1)), fc.array(literal, { minLength: NAMES.length, maxLength: NAMES.length }), numberLiteral, fc.constantFrom('', ' ', '  ', '\n', '\t'))
  .map(([names, values, id, space]) => `${space}{${space}"id"${space}:${id}${names.map((name, i) => `,${space}${JSON.stringify(name)}:${space}${values[i]}`).join('')}${space}}${space}`);

const identity: Identity = { property: 'id', type: 'other' };
// The request path reads a body along its schema's plan: here, the id as an int64.
const plan = exactPlanOf({ type: 'object', properties: { id: { type: 'integer', format: 'int64' } } });

describe('a created record answered from its body', () => {
  it('answers what the record parsed back answers, for any body, declared set and answer', () => {
    fc.assert(
      fc.property(bodyText, fc.subarray(NAMES), fc.subarray(NAMES), (text, declaredNames, answeredNames) => {
        const body = parseExactJson(text, plan, { refuseDuplicateNames: true }) as Record<string, unknown>;
        const declared = new Set(declaredNames);
        const key = keyOfBody(body, identity) as string;
        const made = madeRecord(body, key, identity, declared, text);
        if (made.value === undefined) return;
        expect(made.value).toBe(body);
        const answered = new Set(answeredNames);
        expect(projection(made.value, answered)).toBe(projection(recordValue(made.record), answered));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers from the body only when the record is its text as sent', () => {
    const declared = new Set(['id', 'name']);
    const sent = '{"id":7,"name":"Monstera"}';
    const asSent = madeRecord(JSON.parse(sent) as Record<string, unknown>, '7', identity, declared, sent);
    expect(asSent.record.json).toBe(sent);
    expect(asSent.value).toEqual({ id: 7, name: 'Monstera' });
    // A property the record does not keep, a number written otherwise, a body without the identity, or no text: the record is written anew.
    for (const text of ['{"id":7,"name":"Monstera","x":1}', '{"id":7.0,"name":"Monstera"}', '{"id":12345678901234567890,"name":"M"}']) {
      const body = parseExactJson(text, plan) as Record<string, unknown>;
      expect(madeRecord(body, keyOfBody(body, identity) as string, identity, declared, text).value, text).toBeUndefined();
    }
    expect(madeRecord({ name: 'Monstera' }, '8', identity, declared, '{"name":"Monstera"}').value).toBeUndefined();
    expect(madeRecord({ id: 7, name: 'Monstera' }, '7', identity, declared).value).toBeUndefined();
  });
});
