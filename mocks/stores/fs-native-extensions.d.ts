/** The part of fs-native-extensions (which ships no types) that the state-file lock uses. */
declare module 'fs-native-extensions' {
  /**
   * Takes an exclusive (or, with `shared`, a shared) lock on an open file without waiting:
   * true when granted, false when another open file holds a conflicting lock.
   */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number, offset?: number, length?: number): void;
}
