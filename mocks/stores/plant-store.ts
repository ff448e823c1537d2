/**
 * The mock's memory of created plants. Ids are exact int64 values; two ids that round to the
 * same double are two plants. Insertion order is creation order.
 */
import type { NewPlant } from '../../spec/index.js';

/** A stored NewPlant, its id exact. */
export interface StoredPlant extends Omit<NewPlant, 'id'> {
  id: bigint;
}

export type CreateOutcome = 'created' | 'duplicate';
export type SeedOutcome = { created: number } | { duplicates: bigint[] };

/**
 * What the server needs of a store. A durable store may answer with promises that settle once
 * the change is on disk; the in-memory store answers synchronously.
 */
export interface PlantStore {
  readonly size: number;
  /** Stores the plant unless its id is taken; a duplicate leaves the first plant unchanged. */
  createPlant(plant: StoredPlant): CreateOutcome | Promise<CreateOutcome>;
  /** Stores all the plants, or none when any id is taken or repeats. */
  seedPlants(plants: readonly StoredPlant[]): SeedOutcome | Promise<SeedOutcome>;
  /** Forgets every plant; ids may be reused after. */
  reset(): void | Promise<void>;
  /** Every plant, in creation order. */
  plants(): Iterable<StoredPlant>;
  close?(): void | Promise<void>;
}

/** What a store throws when it cannot keep a change; nothing of that change was stored. */
export class StorageFailure extends Error {
  override name = 'StorageFailure';
}

/** A safe integer as a number, anything larger as a bigint: one canonical Map key per id. */
type PlantKey = number | bigint;
// Hoisted: building these BigInts on every create showed in the request path's CPU profile.
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const keyOf = (id: bigint): PlantKey => (id >= MIN_SAFE && id <= MAX_SAFE ? Number(id) : id);

/** What is kept per plant: the name alone when it has no tag (the common, smaller case). */
type Entry = string | readonly [name: string, tag: string];

export class MemoryPlantStore implements PlantStore {
  #entries = new Map<PlantKey, Entry>();

  get size(): number {
    return this.#entries.size;
  }

  has(id: bigint): boolean {
    return this.#entries.has(keyOf(id));
  }

  createPlant(plant: StoredPlant): CreateOutcome {
    const key = keyOf(plant.id);
    if (this.#entries.has(key)) return 'duplicate';
    this.#entries.set(key, plant.tag === undefined ? plant.name : [plant.name, plant.tag]);
    return 'created';
  }

  seedPlants(plants: readonly StoredPlant[]): SeedOutcome {
    const seen = new Set<PlantKey>();
    const duplicates: bigint[] = [];
    for (const plant of plants) {
      const key = keyOf(plant.id);
      if (this.#entries.has(key) || seen.has(key)) duplicates.push(plant.id);
      seen.add(key);
    }
    if (duplicates.length) return { duplicates };
    for (const plant of plants) this.createPlant(plant);
    return { created: plants.length };
  }

  /** Removes one plant; a durable store uses it to undo a create whose write failed. */
  delete(id: bigint): void {
    this.#entries.delete(keyOf(id));
  }

  reset(): void {
    this.#entries = new Map();
  }

  *plants(): Iterable<StoredPlant> {
    for (const [key, entry] of this.#entries) {
      const id = BigInt(key);
      yield typeof entry === 'string' ? { id, name: entry } : { id, name: entry[0], tag: entry[1] };
    }
  }
}
