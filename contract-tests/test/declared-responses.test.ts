/**
 * Which declared response covers an answered status is one rule (openapi/operations/compile.ts `coveringResponse`:
 * the status, else its range, else `default`), used by the suite's checks (`declaredResponse`) and
 * by the mock's error answers (`declaredFor`): both pick the same response for every status.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../openapi/operations/compile.js';
import { declaredFor } from '../../openapi/operations/model.js';
import { declaredResponse, suiteContractOf } from '../spec-contract.js';

const response = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const compiled = compileContract(
  {
    openapi: '3.1.0',
    info: { title: 'Covering', version: '1' },
    paths: {
      '/things': {
        get: { operationId: 'listThings', responses: { '200': response('exact 200'), '404': response('exact 404'), '4XX': response('range 4XX'), default: response('default') } },
        post: { operationId: 'makeThing', responses: { '201': response('exact 201'), '5xx': response('range 5XX') } },
      },
    },
  },
  'covering.json',
);

describe('the declared response covering a status', () => {
  it('is the exact one, else its range, else default, for the suite and the mock alike', () => {
    // [operation, status, the mock's pick (its description), the suite's pick (the status the spec wrote)]
    const cases: Array<[string, number, string | undefined, number | string | undefined]> = [
      ['listThings', 200, 'exact 200', 200],
      ['listThings', 404, 'exact 404', 404],
      ['listThings', 418, 'range 4XX', '4XX'],
      ['listThings', 503, 'default', 'default'],
      ['listThings', 201, 'default', 'default'],
      ['makeThing', 201, 'exact 201', 201],
      ['makeThing', 502, 'range 5XX', '5XX'],
      ['makeThing', 400, undefined, undefined],
    ];
    for (const [operationId, status, mockPick, suitePick] of cases) {
      const operation = compiled.operations.get(operationId);
      if (!operation) throw new Error(`no ${operationId}`);
      expect(declaredFor(operation, status)?.description, `${operationId} ${status} (mock)`).toBe(mockPick);
      expect(declaredResponse(suiteContractOf(compiled, operationId), status)?.status, `${operationId} ${status} (suite)`).toBe(suitePick);
    }
  });
});
