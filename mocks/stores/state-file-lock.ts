/**
 * One mock per state file: an exclusive advisory lock the kernel holds for the process.
 *
 * The lock is taken on `FILE.lock` beside the state file, never on the state file itself:
 * compaction renames a new file over the state file, and a lock on the old inode would not cover
 * the new one. The lock file is never renamed or deleted (deleting it would let two processes lock
 * two different inodes under one name), so it stays beside the state file, a few bytes naming the
 * last holder.
 *
 * The lock is an open-file-description lock (fcntl F_OFD_SETLK on Linux, flock on macOS,
 * LockFileEx on Windows) through fs-native-extensions: taking it is one atomic system call, so two
 * mocks starting at once cannot both win, and the kernel drops it when the holder's file is closed
 * or the process dies, `kill -9` included, so a restart is never blocked by a stale lock. The
 * holder writes its PID, host and start time into the file for the message the next one prints.
 */
import { hostname } from 'node:os';
import { constants } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';

/** Who holds a state file's lock, as its holder wrote it. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the holder took the lock (ISO 8601). */
  since: string;
}

export class StateFileLock {
  readonly path: string;
  #handle: FileHandle | undefined;

  constructor(path: string, handle: FileHandle) {
    this.path = path;
    this.#handle = handle;
  }

  /** Releases the lock (closing the file releases it; so does the process's death). */
  async release(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }
}

/** The lock file that guards `statePath`. */
export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/**
 * Takes the lock on the state file whose real path (symlinks resolved) is `realPath`, without
 * waiting. Throws an Error naming `statePath` (as the user gave it) and the process that holds the
 * lock when another one does.
 */
export async function lockStateFile(statePath: string, realPath: string = statePath): Promise<StateFileLock> {
  const path = lockPathOf(realPath);
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: the holder's note is written into this file; a symlink planted here would aim that write elsewhere.
    handle = await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    throw new Error(`Cannot use the state file ${statePath}: its lock file ${path} cannot be opened (${(error as Error).message}).`);
  }
  let locked: boolean;
  try {
    // Loaded here, not at import: a mock without a state file never loads the native addon.
    const { tryLock } = await import('fs-native-extensions');
    locked = tryLock(handle.fd);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw new Error(`Cannot use the state file ${statePath}: its lock file ${path} cannot be locked (${(error as Error).message}).`);
  }
  if (!locked) {
    await handle.close().catch(() => undefined);
    // The holder writes its note just after it takes the lock: a mock started at the same moment
    // may look before it is there. Look again a few times, briefly, to name the holder.
    let holder = await readHolder(path);
    for (let attempt = 0; holder === undefined && attempt < 10; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      holder = await readHolder(path);
    }
    throw new Error(heldMessage(statePath, path, holder));
  }
  try {
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    await handle.truncate(0);
    await handle.write(`${JSON.stringify(holder)}\n`, 0);
  } catch {
    // The lock holds without the note; only the next one's message is the poorer for it.
  }
  return new StateFileLock(path, handle);
}

function heldMessage(statePath: string, lockPath: string, holder: LockHolder | undefined): string {
  const who = holder ? `process ${holder.pid} on host ${holder.host} (since ${holder.since})` : 'another process (the lock file does not say which yet)';
  return (
    `Cannot use the state file ${statePath}: another mock is using it, ${who} holds its lock ${lockPath}. ` +
    'Two mocks on one state file would each lose what the other writes. Stop that mock first, or give this one another --state-file.'
  );
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'string') {
      return { pid: value.pid, host: value.host, since: value.since };
    }
  } catch {
    // Not written yet, or unreadable: the message says so.
  }
  return undefined;
}
