/**
 * What the admin routes and the recorder work with for one running mock, which the HTTP edge
 * (../server.ts) assembles: the engine's context, the journal, the admin token, and the proxy in
 * proxy mode.
 */
import type { EngineContext } from '../engine/context.js';
import type { ValidatingProxy } from '../proxy/proxy.js';
import type { RequestJournal } from './journal.js';
import type { JournalWaits } from './journal-wait.js';

export interface MockContext extends EngineContext {
  journal: RequestJournal;
  /** The long polls of the journal waiting now (`?wait=`), bounded and ended at shutdown. */
  waits: JournalWaits;
  /** Which process answers, when several replicas serve one sandbox (`--replica-name`). */
  replica: string;
  /** The admin token as a one-entry allow-list; undefined leaves the admin routes open. */
  adminTokens: ReadonlySet<string> | undefined;
  /** Proxy mode (--proxy): requests go to the upstream and the store is not used. */
  proxy?: ValidatingProxy;
}
