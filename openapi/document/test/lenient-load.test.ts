/**
 * Loading what real documents contain (issue 37 §3): names the upgrader must not read as keywords,
 * flaws that leave the API servable loaded with one warning naming the pointer, YAML 1.2 as real
 * projects publish it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContract, readContract } from '../../operations/compile.js';

const realWorld = (file: string): string => fileURLToPath(new URL(`../../../fixtures/real-world/${file}`, import.meta.url));

describe('a name in a map of names survives the 3.0 → 3.1 upgrade', () => {
  it('properties called example, nullable, exclusiveMinimum and x-webhooks stay properties of that name, in their order', () => {
    const contract = compileContract(
      {
        openapi: '3.0.3',
        info: { title: 'feedback', version: '1' },
        paths: {
          '/feedback': {
            post: {
              requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Feedback' } } } },
              responses: { '204': { description: 'stored' } },
            },
          },
        },
        components: {
          schemas: {
            Feedback: {
              type: 'object',
              required: ['example', 'score'],
              properties: {
                example: { type: 'string', example: 'a text' },
                score: { type: 'number', minimum: 0, exclusiveMinimum: true },
                nullable: { type: 'boolean' },
                exclusiveMinimum: { type: 'integer' },
                'x-webhooks': { type: 'string' },
              },
            },
            example: { type: 'string', nullable: true },
          },
        },
      },
      'feedback.yaml',
    );
    const schemas = (contract.document.components as { schemas: Record<string, { properties?: Record<string, unknown>; type?: unknown }> }).schemas;
    expect(Object.keys(schemas.Feedback?.properties ?? {})).toEqual(['example', 'score', 'nullable', 'exclusiveMinimum', 'x-webhooks']);
    // The keywords beside them are still upgraded.
    expect(schemas.Feedback?.properties?.example).toEqual({ type: 'string', examples: ['a text'] });
    expect(schemas.Feedback?.properties?.score).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(schemas.example?.type).toEqual(['string', 'null']);
    const validate = contract.operations.get('post_feedback')?.requestBody?.content.get('application/json')?.validate;
    expect(validate?.({ example: 'it works', score: 1, nullable: true, exclusiveMinimum: 3 })).toBe(true);
    expect(validate?.({ examples: ['it works'], score: 1 })).toBe(false);
    expect(validate?.({ example: 'x', score: 0 })).toBe(false);
  });

  it("qdrant's document (FeedbackItem has a property called example) loads", async () => {
    const contract = await readContract(realWorld('qdrant/openapi.json'));
    expect(contract.operations.size).toBe(69);
    const feedback = (contract.document.components as { schemas: Record<string, { properties: object }> }).schemas.FeedbackItem;
    expect(Object.keys(feedback?.properties ?? {})).toContain('example');
  });
});
