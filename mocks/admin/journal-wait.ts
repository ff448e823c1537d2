/**
 * Waiting on the journal: `GET /__mock/requests?after=N&wait=S` (a long poll) answers as soon as the
 * journal holds an entry after N, S seconds pass, the spec is reloaded (--watch) or the mock stops,
 * so the inspector shows a request the moment it is journaled instead of on its next poll. The
 * journal says when entries may have been added (`RequestJournal.watch`: in this process, or on
 * Redis through its pub/sub for every replica); a journal that cannot tell answers at once, and so
 * does a mock already holding MAX_WAITERS waits, and the page polls as before.
 *
 * A long poll rather than a server-sent events stream: it is the listing the page already reads,
 * with its admin token in the Authorization header (EventSource cannot send one), its origin check,
 * its CORS and its filters, and a proxy or balancer in front passes it as any other answer.
 */
import type { Socket } from 'node:net';
import type { RequestJournal } from './journal.js';

/** The longest wait a client may ask for: well under the 60 s a proxy in front (nginx) allows an answer. */
export const MAX_WAIT_SECONDS = 30;
/** Waits held at once by one mock; past it a wait answers at once (each holds a connection). */
export const MAX_WAITERS = 32;
/** The answer's header saying what the wait came to (the page polls again only when told `busy` or `unavailable`). */
export const WAIT_HEADER = 'x-mock-journal-wait';
/** The header of every journal listing counting the spec's reloads (--watch): a wait given another count ends at once. */
export const RELOADS_HEADER = 'x-mock-spec-reloads';

/**
 * `news`: an entry after the cursor (or a cursor the journal no longer numbers from); `timeout`: none
 * came; `spec`: the spec was reloaded; `closing`: the mock stops; `gone`: the client went away;
 * `busy`: too many waits already; `unavailable`: the journal cannot say when it changes (Redis out of reach).
 */
export type WaitOutcome = 'news' | 'timeout' | 'spec' | 'closing' | 'gone' | 'busy' | 'unavailable';

/** The waits of one mock: bounded, and ended together on a spec reload or at shutdown. */
export class JournalWaits {
  readonly max: number;
  /** Each wait's end, called with what ended it. */
  readonly #ends = new Set<(outcome: WaitOutcome) => void>();
  #held = 0;
  #closed = false;
  #reloads = 0;

  constructor(max = MAX_WAITERS) {
    this.max = max;
  }

  /** How many times the spec was reloaded (--watch) since the mock started. */
  get reloads(): number {
    return this.#reloads;
  }

  /** How many waits are open now (the bound counts these). */
  get size(): number {
    return this.#ends.size;
  }

  /** How many of them are parked, having found nothing after their cursor: an open wait may be about to answer news. */
  get held(): number {
    return this.#held;
  }

  /**
   * Waits until `hasNews()` holds, asking it once the journal is watched (so nothing recorded
   * meanwhile is missed) and again after each change the journal reports, or until `ms` pass, the
   * spec is reloaded (or was, since the client saw `reloads`), the mock stops or `socket` closes.
   */
  async wait(journal: RequestJournal, ms: number, hasNews: () => Promise<boolean>, { reloads, socket }: { reloads?: number; socket?: Socket } = {}): Promise<WaitOutcome> {
    if (this.#closed) return 'closing';
    if (reloads !== undefined && reloads !== this.#reloads) return 'spec';
    if (this.#ends.size >= this.max) return 'busy';
    let ended: WaitOutcome | undefined;
    let changed = false;
    let resume: () => void = () => undefined;
    const end = (outcome: WaitOutcome): void => {
      ended ??= outcome;
      resume();
    };
    const onChange = (): void => {
      changed = true;
      resume();
    };
    const onGone = (): void => end('gone');
    this.#ends.add(end);
    const timer = setTimeout(() => end('timeout'), ms);
    socket?.once('close', onGone);
    let stop: (() => void) | undefined;
    try {
      stop = await journal.watch?.(onChange);
      if (!stop) return 'unavailable';
      for (;;) {
        changed = false;
        if (await hasNews()) return 'news';
        if (ended) return ended;
        if (changed) continue;
        this.#held++;
        try {
          await new Promise<void>((resolve) => (resume = resolve));
        } finally {
          this.#held--;
        }
      }
    } finally {
      stop?.();
      clearTimeout(timer);
      socket?.off('close', onGone);
      this.#ends.delete(end);
    }
  }

  /** Ends every wait now: the spec was reloaded, and the pages waiting should read it. */
  specChanged(): void {
    this.#reloads++;
    for (const end of this.#ends) end('spec');
  }

  /** Ends every wait, and answers later ones at once: the mock stops. */
  close(): void {
    this.#closed = true;
    for (const end of this.#ends) end('closing');
  }
}
