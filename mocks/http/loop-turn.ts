/**
 * Waiting for the event loop's check phase, after the poll phase has read every socket that was
 * ready. A server that decides its answers there sends the answers of one loop turn together
 * instead of one per read, and a body that came with its headers is already buffered
 * (docs/benchmarks.md has what this moved). One wait per server: servers in one process do not
 * share it.
 */
export class LoopTurn {
  /** The wait of the loop turn in progress: one promise for every request of the turn. */
  #turn: Promise<void> | undefined;

  /** Resolves in this loop turn's check phase. */
  afterReads(): Promise<void> {
    return (this.#turn ??= new Promise((resolve) => {
      setImmediate(() => {
        this.#turn = undefined;
        resolve();
      });
    }));
  }
}
