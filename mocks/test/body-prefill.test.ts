/**
 * The body the inspector's "Try it" form starts with when the spec gives none
 * (mocks/admin/body-prefill.ts), on request schemas that refer to themselves
 * (fixtures/specs/recursive-bodies-3.1): finite, valid by the request's own validator, the
 * recursion cut where the schema allows it; none where no finite value exists.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../openapi/operations/compile.js';
import { type CompiledContract, type ContractMediaType } from '../../openapi/operations/model.js';
import { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { generatedRequestBody } from '../admin/body-prefill.js';

const specPath = (name: string): string => fileURLToPath(new URL(`../../fixtures/specs/${name}/openapi.yaml`, import.meta.url));

function bodyMedia(contract: CompiledContract, operationId: string): ContractMediaType {
  const media = contract.operations.get(operationId)?.requestBody?.content.get('application/json');
  if (!media) throw new Error(`${operationId} takes no JSON body`);
  return media;
}

describe('the "Try it" body generated from a request schema', () => {
  const contract = loadContract(specPath('recursive-bodies-3.1'));
  const patterns = new PatternStrings();
  const generate = (operationId: string): unknown => generatedRequestBody(bodyMedia(contract, operationId), contract.document, patterns);

  it('cuts Category.children (Category[]) to an empty list and leaves the optional parent and the readOnly id out', () => {
    const body = generate('createCategory');
    expect(body).toEqual({ name: expect.any(String), children: [] });
    expect(bodyMedia(contract, 'createCategory').validate?.(body)).toBe(true);
  });

  it('keeps required recursive properties valid: an empty list for the required children, null for the required next', () => {
    const body = generate('createNode');
    expect(body).toEqual({ label: expect.any(String), children: [], next: null });
    expect(bodyMedia(contract, 'createNode').validate?.(body)).toBe(true);
  });

  it('gives none for a schema with no finite value (a required property that can only hold itself)', () => {
    expect(generate('createChain')).toBeUndefined();
  });

  it('generates the recursive tree of an OpenAPI 3.0 spec too, its readOnly id left out and the body valid', () => {
    const older = loadContract(specPath('generated-bodies-3.0'));
    const media = bodyMedia(older, 'createWidget');
    const body = generatedRequestBody(media, older.document, patterns);
    expect(body).toMatchObject({ name: expect.any(String) });
    expect(body).not.toHaveProperty('id');
    expect(media.validate?.(body)).toBe(true);
  });
});
