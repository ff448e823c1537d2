/**
 * Judging a value costs work linear in the value whatever the schema's shape (issue 39, item 1):
 * with Ajv's `allErrors`, each `$ref` call's errors were concatenated onto the caller's growing
 * list, so 12,000 `{}` items behind `items: {$ref}` cost 9.3 CPU-seconds against 0.33 inline.
 * The work is counted (errors collected, values walked, all-errors runs), never timed.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../operations/compile.js';
import { createSpecAjv } from '../ajv.js';
import { ALL_ERRORS_VALUE_LIMIT, boundedValidator, type ValidationWork } from '../bounded-validation.js';

const NOTE = { type: 'object', required: ['id', 'title', 'body'], properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' } } };

function listValidator(items: 'ref' | 'inline') {
  const document = {
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    paths: {
      '/notes': {
        post: {
          operationId: 'createNotes',
          requestBody: { content: { 'application/json': { schema: { type: 'array', items: items === 'ref' ? { $ref: '#/components/schemas/Note' } : NOTE } } } },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: { schemas: { Note: NOTE } },
  };
  const validate = compileContract(document, 'notes.json').operations.get('createNotes')?.requestBody?.content.get('application/json')?.validate;
  if (!validate) throw new Error('no validator');
  return validate;
}

const empties = (count: number) => Array.from({ length: count }, () => ({}));

describe('bounded validation', () => {
  it('collects as many errors for a list behind a $ref as inline, and a bounded number for a large list', () => {
    const collected = (items: 'ref' | 'inline', count: number): number => {
      const validate = listValidator(items);
      expect(validate(empties(count))).toBe(false);
      return validate.errors?.length ?? 0;
    };
    // A small invalid body is described whole: every missing property of every item.
    expect(collected('ref', 3)).toBe(9);
    expect(collected('inline', 3)).toBe(9);
    // 12,000 items once collected 36,000 errors, each `$ref` call copying the list built so far.
    for (const items of ['ref', 'inline'] as const) {
      const large = collected(items, 12_000);
      expect(large).toBeGreaterThan(0);
      expect(large).toBeLessThanOrEqual(3 * ALL_ERRORS_VALUE_LIMIT);
    }
    expect(collected('ref', 12_000) / collected('inline', 12_000)).toBeLessThanOrEqual(1);
  });

  it('still finds a valid list valid, and the first error of a large invalid one', () => {
    const validate = listValidator('ref');
    const valid = Array.from({ length: 5000 }, (_, id) => ({ id, title: 't', body: 'b' }));
    expect(validate(valid)).toBe(true);
    expect(validate.errors).toBeNull();
    valid[4000] = { id: 1, title: 't' } as never;
    expect(validate(valid)).toBe(false);
    expect(validate.errors?.map((error) => [error.instancePath, error.keyword])).toEqual([['/4000', 'required']]);
  });

  it('walks at most the limit of values, and collects every error only of a small value, whatever its size', () => {
    const ajv = createSpecAjv({ allErrors: false, inlineRefs: false });
    const all = createSpecAjv({ allErrors: true, inlineRefs: false });
    const schema = { $defs: { Note: NOTE }, type: 'array', items: { $ref: '#/$defs/Note' } };
    for (const count of [10, 1_000, 100_000]) {
      const work: ValidationWork = { allErrorsRuns: 0, valuesCounted: 0 };
      const validate = boundedValidator(ajv.compile(schema), () => all.compile(schema), work);
      expect(validate(empties(count))).toBe(false);
      expect(work.valuesCounted).toBeLessThanOrEqual(ALL_ERRORS_VALUE_LIMIT + 1);
      expect(work.allErrorsRuns).toBe(count + 1 <= ALL_ERRORS_VALUE_LIMIT ? 1 : 0);
    }
  });
});
