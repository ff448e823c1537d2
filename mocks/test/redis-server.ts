/**
 * A real `redis-server` for tests (Debian's package; `.ci/run` installs it): started on a free
 * loopback port in a temporary directory, stopped by its PID, and killable with SIGKILL and
 * restartable on the same port and directory for fault tests. No Redis mock.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `REDIS_SERVER` overrides; otherwise `redis-server` on the PATH. */
export const REDIS_SERVER_PATH: string | undefined = findRedisServer();
/** Why Redis-backed tests are skipped here, or undefined when they run. */
export const REDIS_SKIP_REASON: string | undefined = REDIS_SERVER_PATH ? undefined : 'redis-server not found (apt-get install -y redis-server, or set REDIS_SERVER)';
if (REDIS_SKIP_REASON && process.env.VITEST) console.warn(`skipped: Redis-backed tests (${REDIS_SKIP_REASON})`);

function findRedisServer(): string | undefined {
  const configured = process.env.REDIS_SERVER;
  if (configured) return existsSync(configured) ? configured : undefined;
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined;
}

const started = new Set<ChildProcess>();
// A test run that dies between start and stop does not leave servers behind.
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export interface RedisServerOptions {
  /**
   * `aof-always`: append-only file, fsync before every reply (survives kill -9); `aof-everysec`:
   * written before the reply, fsynced every second (the compose profile's setting); `none`: memory only.
   */
  persistence?: 'none' | 'aof-always' | 'aof-everysec';
  /** Extra `redis-server` arguments, e.g. `['--requirepass', 'secret']`. */
  args?: string[];
  timeoutMs?: number;
}

export class RedisServer {
  readonly port: number;
  readonly dir: string;
  readonly #options: RedisServerOptions;
  #child: ChildProcess | undefined;
  #exit: Promise<void> = Promise.resolve();
  #output = '';

  private constructor(port: number, dir: string, options: RedisServerOptions) {
    this.port = port;
    this.dir = dir;
    this.#options = options;
  }

  /** Starts a server on a free loopback port in a new temporary directory. */
  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    if (!REDIS_SERVER_PATH) throw new Error(REDIS_SKIP_REASON);
    const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
    // A port another process takes between our probe and Redis' bind makes Redis exit: try again.
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const server = new RedisServer(await freePort(), dir, options);
      try {
        await server.restart();
        return server;
      } catch (error) {
        lastError = error as Error;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    throw lastError;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get output(): string {
    return this.#output;
  }

  /** (Re)starts the server on its port and directory; answers once it accepts connections. */
  async restart(): Promise<void> {
    if (this.#child) throw new Error(`redis-server ${this.#child.pid} is still running`);
    const persistence =
      this.#options.persistence === 'aof-always' || this.#options.persistence === 'aof-everysec'
        ? ['--appendonly', 'yes', '--appendfsync', this.#options.persistence === 'aof-always' ? 'always' : 'everysec']
        : ['--appendonly', 'no'];
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--logfile', '', '--daemonize', 'no', ...persistence, ...(this.#options.args ?? [])];
    const child = spawn(REDIS_SERVER_PATH as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    started.add(child);
    this.#exit = new Promise((resolve) =>
      child.on('exit', () => {
        started.delete(child);
        if (this.#child === child) this.#child = undefined;
        resolve();
      }),
    );
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`redis-server on port ${this.port} not ready within ${timeoutMs} ms:\n${this.#output}`));
      }, timeoutMs);
      const onData = (chunk: Buffer): void => {
        this.#output += chunk;
        if (/Ready to accept connections/.test(this.#output.slice(-4096))) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      void this.#exit.then(() => {
        clearTimeout(timer);
        reject(new Error(`redis-server on port ${this.port} exited before it was ready:\n${this.#output}`));
      });
    });
  }

  /** `kill -9` by PID, as a crash would; answers once the process is gone. */
  async kill(): Promise<void> {
    await this.#signal('SIGKILL');
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void {
    if (this.#child?.pid) process.kill(this.#child.pid, 'SIGSTOP');
  }

  resume(): void {
    if (this.#child?.pid) process.kill(this.#child.pid, 'SIGCONT');
  }

  /** Stops the server (SIGTERM, SIGKILL after 5 s) and removes its directory. */
  async stop(): Promise<void> {
    this.resume();
    const child = this.#child;
    if (child) {
      const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
      await this.#signal('SIGTERM');
      clearTimeout(forced);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  async #signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.#child;
    if (!child?.pid) return;
    const exit = this.#exit;
    process.kill(child.pid, signal);
    await exit;
  }
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
