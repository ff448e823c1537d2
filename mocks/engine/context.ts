/** What the request path needs to decide an answer: the spec, the store, the journal, the options. */
import type { RequestJournal } from '../admin/journal.js';
import type { PlantStore } from '../stores/plant-store.js';
import type { SpecEngine } from './spec-engine.js';

export interface MockContext {
  engine: SpecEngine;
  store: PlantStore;
  journal: RequestJournal;
  /** Largest accepted body in bytes. */
  maxBody: number;
  tokens: ReadonlySet<string> | undefined;
  /** The admin token as a one-entry allow-list; undefined leaves the admin routes open. */
  adminTokens: ReadonlySet<string> | undefined;
}
