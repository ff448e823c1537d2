/** What the request path and the admin routes need to decide an answer. */
import type { RequestJournal } from '../admin/journal.js';
import type { ResourceStore } from '../stores/store.js';
import type { ValidatingProxy } from '../proxy/proxy.js';
import type { Engine } from './engine.js';

export interface MockContext {
  /** The engine of the current spec; --watch replaces it when the spec changes. */
  engine: Engine;
  store: ResourceStore;
  journal: RequestJournal;
  /** Largest accepted body in bytes. */
  maxBody: number;
  /** Which process answers, when several replicas serve one sandbox (`--replica-name`). */
  replica: string;
  /** The admin token as a one-entry allow-list; undefined leaves the admin routes open. */
  adminTokens: ReadonlySet<string> | undefined;
  /** Proxy mode (--proxy): requests go to the upstream and the store is not used. */
  proxy?: ValidatingProxy;
}
