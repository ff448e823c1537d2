/**
 * How many records a list reads from a store synchronously before letting the event loop answer
 * other requests. A filter has no index: it reads every record of the collection, and an in-memory
 * store hands its pages over without waiting, so 1.5 million records were one synchronous loop of
 * seconds with the health check unanswered. The list waits for the next loop turn after each bound.
 */
import { setImmediate as afterPoll } from 'node:timers/promises';

export interface ScanBound {
  /** Records read in one event-loop turn at most (a page of the store at a time, never a larger one). */
  recordsPerTurn: number;
  /** Called each time a scan gives the loop a turn (for tests to see it happen). */
  yielded?: () => void;
}

/** About 5 ms of filtering on a quiet machine (docs/security.md). */
export const DEFAULT_SCAN_BOUND: ScanBound = { recordsPerTurn: 2000 };

/** Resolves in the next loop turn's check phase, after the poll phase has read the sockets waiting. */
export function nextTurn(bound: ScanBound): Promise<void> {
  bound.yielded?.();
  return afterPoll();
}
