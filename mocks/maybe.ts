/**
 * Values the request path (engine, stores, journal) may have at once or only later: the in-memory store and a decided
 * request answer at once, Redis and a body still arriving with a promise. `continueWith` continues at once
 * when nothing is pending, so a request that waits on nothing costs no promise.
 */
export type Maybe<T> = T | Promise<T>;

/** `next` of a value that may be a promise: at once when it is not. Not named `then`: a module exporting `then` is a thenable, which `await import()` would call. */
export function continueWith<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
