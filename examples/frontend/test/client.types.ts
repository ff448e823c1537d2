/**
 * Type-level checks, compiled by `tsc -p examples/frontend` and never run: the generated types
 * really constrain calls, so a spec change that loosens them breaks the build.
 */
import { createPlant, createPlantStoreClient, type CreatePlantResult } from '../src/plant-store-client';

const client = createPlantStoreClient({ baseUrl: 'http://127.0.0.1:4010', getToken: () => 'dev-token' });

// The mock's Prefer header goes through openapi-fetch's per-request headers.
void client.POST('/plants', { body: { id: 1, name: 'Monstera' }, headers: { Prefer: 'code=500' } });

// @ts-expect-error NewPlant requires id
void client.POST('/plants', { body: { name: 'Monstera' } });
// @ts-expect-error name is a string
void createPlant(client, { id: 1, name: 42 });
// @ts-expect-error the spec has no GET /plants
void client.GET('/plants');
// @ts-expect-error nor a /plant path
void client.POST('/plant', { body: { id: 1, name: 'Monstera' } });

export function message(result: CreatePlantResult): string {
  // @ts-expect-error a result must be narrowed before its error is read
  void result.error;
  return result.ok ? result.plant.name : result.error.message;
}
