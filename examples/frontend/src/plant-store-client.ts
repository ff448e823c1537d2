/**
 * A typed Plant Store client for a frontend: openapi-fetch over the types openapi-typescript
 * generated from the spec (src/plant-store.gen.ts; `npm run generate` rewrites it). Nothing
 * here restates the API by hand: paths, bodies and the Error shape all come from the spec.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './plant-store.gen';

export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
export type ApiError = components['schemas']['Error'];

export interface PlantStoreOptions {
  /** Where the API lives: the mock (`http://127.0.0.1:4010`) while developing. */
  baseUrl: string;
  /** The bearer token, read on every request so a refreshed token is picked up. */
  getToken: () => string | undefined;
}

/** A client whose `POST('/plants', …)` is typed from the spec. */
export function createPlantStoreClient({ baseUrl, getToken }: PlantStoreOptions) {
  const client = createClient<paths>({ baseUrl });
  const bearerAuth: Middleware = {
    onRequest({ request }) {
      const token = getToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearerAuth);
  return client;
}

export type PlantStoreClient = ReturnType<typeof createPlantStoreClient>;

/** Every outcome a UI has to handle when it creates a plant. */
export type CreatePlantResult =
  | { ok: true; plant: Plant }
  /** 401: no token, or one the API does not accept. Send the user to sign in again. */
  | { ok: false; unauthorized: true; error: ApiError }
  /** Any other rejection (400 invalid body, 409 duplicate id, 5xx…): show `error.message`. */
  | { ok: false; unauthorized: false; status: number; error: ApiError };

export async function createPlant(client: PlantStoreClient, plant: NewPlant): Promise<CreatePlantResult> {
  const { data, error, response } = await client.POST('/plants', { body: plant });
  if (response.ok && data !== undefined) return { ok: true, plant: data };
  const body = asApiError(error, response);
  if (response.status === 401) return { ok: false, unauthorized: true, error: body };
  return { ok: false, unauthorized: false, status: response.status, error: body };
}

/**
 * The answer's Error body; when something other than the API answered (a proxy's HTML error
 * page, an empty 502), an Error made from the status, so the UI has one shape to show.
 */
function asApiError(error: unknown, response: Response): ApiError {
  const candidate = error as Partial<ApiError> | undefined;
  if (typeof candidate?.message === 'string' && typeof candidate.error === 'number') return candidate as ApiError;
  return { error: response.status, message: `HTTP ${response.status} ${response.statusText}`.trim() };
}
