/**
 * `npm run demo` (with the mock running: `npm start` at the repository root): creates a plant and
 * shows the outcomes a UI must handle — success, a rejection in the Error shape, and a 401.
 */
import { createPlant, createPlantStoreClient, type CreatePlantResult } from './plant-store-client';

const baseUrl = process.env.PLANT_STORE_URL ?? 'http://127.0.0.1:4010';
const token = process.env.PLANT_STORE_TOKEN ?? 'dev-token';

function describe(result: CreatePlantResult): string {
  if (result.ok) return `created ${result.plant.name}${result.plant.tag ? ` (${result.plant.tag})` : ''}`;
  if (result.unauthorized) return `401, ask the user to sign in again: ${result.error.message}`;
  return `rejected with ${result.status}: ${result.error.message}`;
}

const client = createPlantStoreClient({ baseUrl, getToken: () => token });
const plant = { id: Date.now(), name: 'Monstera', tag: 'tropical' };

console.log(describe(await createPlant(client, plant)));
console.log(describe(await createPlant(client, plant))); // the same id again: 409
const signedOut = createPlantStoreClient({ baseUrl, getToken: () => undefined });
console.log(describe(await createPlant(signedOut, { id: plant.id + 1, name: 'Ficus' })));
