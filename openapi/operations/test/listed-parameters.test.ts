/**
 * Path parameters naming a record only a list answers (openapi/operations/dependencies.ts,
 * listedParameters), on real documents: Maestro's workflows and Gotify's plugins are only listed, so
 * their lists answer every one there is; OpenFGA's authorization models and Xero's statements are
 * listed too, but a POST makes them (an `authorization_model_id` answered, a batch of statements
 * answered with their ids), so a list is not all of them; a collection's records are never listed ones.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readContract } from '../compile.js';
import { listedParameters } from '../dependencies.js';

const ROOT = fileURLToPath(new URL('../../../fixtures/real-world/', import.meta.url));
const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as Array<{ name: string; file: string }>;
const listedOf = async (name: string) => {
  const contract = await readContract(`${ROOT}${CORPUS.find((entry) => entry.name === name)?.file}`);
  return new Map(
    [...listedParameters(contract)].map(([operationId, listed]) => [`${contract.operations.get(operationId)?.method.toUpperCase()} ${contract.operations.get(operationId)?.path}`, listed]),
  );
};

describe('records only a list answers', () => {
  it("Maestro: {workflowId} below the workflows' list, on every operation under a workflow", async () => {
    const listed = await listedOf('docusign-maestro');
    expect(listed.get('GET /v1/accounts/{accountId}/workflows/{workflowId}/trigger-requirements')).toEqual([{ parameter: 'workflowId', list: 'GetWorkflowsList', property: 'id' }]);
    expect(listed.get('POST /v1/accounts/{accountId}/workflows/{workflowId}/actions/trigger')).toEqual([{ parameter: 'workflowId', list: 'GetWorkflowsList', property: 'id' }]);
    // An instance is made by the trigger: a collection's record, never a listed one.
    expect(listed.get('GET /v1/accounts/{accountId}/workflows/{workflowId}/instances/{instanceId}')?.map((p) => p.parameter)).toEqual(['workflowId']);
    // The account is named by no list at all.
    expect([...listed.values()].flat().some((p) => p.parameter === 'accountId')).toBe(false);
  });

  it("Gotify: a plugin's {id}, by the list's description", async () => {
    const listed = await listedOf('gotify');
    expect(listed.get('GET /plugin/{id}/display')).toEqual([{ parameter: 'id', list: 'getPlugins', property: 'id' }]);
    // Messages and applications are made by clients.
    expect([...listed.keys()].filter((key) => !key.includes('/plugin/'))).toEqual([]);
  });

  it('OpenFGA: authorization models are written by a POST answering their id, so none is only listed', async () => {
    const listed = await listedOf('openfga');
    expect([...listed.keys()].filter((key) => key.includes('authorization-models') || key.includes('assertions'))).toEqual([]);
  });

  it("Xero: statements are made in batches at the list's path, so none is only listed; feed connections too", async () => {
    const listed = await listedOf('xero-bankfeeds');
    expect([...listed.keys()]).toEqual([]);
  });
});
