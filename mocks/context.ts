/** What the HTTP edge, the admin routes and the proxy share for one running mock. */
import type { RequestJournal } from './admin/journal.js';
import type { EngineContext } from './engine/context.js';
import type { ValidatingProxy } from './proxy/proxy.js';

export interface MockContext extends EngineContext {
  journal: RequestJournal;
  /** Which process answers, when several replicas serve one sandbox (`--replica-name`). */
  replica: string;
  /** The admin token as a one-entry allow-list; undefined leaves the admin routes open. */
  adminTokens: ReadonlySet<string> | undefined;
  /** Proxy mode (--proxy): requests go to the upstream and the store is not used. */
  proxy?: ValidatingProxy;
}
