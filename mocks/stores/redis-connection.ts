/**
 * One connection to the Redis a sandbox shares, as the store and the shared journal need it:
 * pipelined, never queueing a command while Redis is away nor resending one after a reconnect,
 * reconnecting by itself, and refused at open (StoreUnavailable naming the URL, password masked)
 * when Redis cannot be reached or is too old.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { StoreUnavailable } from './store.js';
import { parseRedisUrl, type RedisTarget } from './redis-target.js';

/** How long a command may go unanswered before Redis counts as out of reach. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** ZRANGE … BYSCORE and exclusive stream ranges, which the scripts use, came with Redis 6.2 (so did ioredis 6's floor). */
const MINIMUM_REDIS = [6, 2] as const;

export interface RedisConnectionOptions {
  /** `redis://[:password@]host:port/db` or `rediss://…`. */
  url: string;
  /** A command unanswered this long fails (default 5000 ms). */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Lua scripts to define as commands (ioredis sends them by EVALSHA). */
  scripts?: RedisOptions['scripts'];
}

/** Connects and answers once Redis serves; throws StoreUnavailable naming the URL, and an Error for a bad URL. */
export async function connectRedis(options: RedisConnectionOptions): Promise<{ client: Redis; target: RedisTarget }> {
  const target = parseRedisUrl(options.url);
  let lastError: Error | undefined;
  const client = new Redis({
    host: target.host,
    port: target.port,
    db: target.db,
    username: target.username,
    password: target.password,
    tls: target.tls ? { servername: target.host } : undefined,
    lazyConnect: true,
    // Pipelining: the commands of one event-loop turn go out in one write (measured in docs/benchmarks.md).
    enableAutoPipelining: true,
    // Never buffer a command while disconnected nor resend one after a reconnect: it fails now
    // (503), and a change Redis may already have applied is never applied twice.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Reconnect for as long as the connection lives: 50 ms, 100 ms, … then every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 50, 2000),
    scripts: options.scripts,
  });
  client.on('error', (error: Error) => (lastError = error));
  try {
    await client.connect();
    const version = /redis_version:(\d+)\.(\d+)/.exec(await client.info('server'));
    const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
    if (major < MINIMUM_REDIS[0] || (major === MINIMUM_REDIS[0] && minor < MINIMUM_REDIS[1])) {
      throw new StoreUnavailable(`Redis at ${target.display} is version ${major}.${minor}; the store needs ${MINIMUM_REDIS.join('.')} or later.`);
    }
  } catch (error) {
    client.disconnect();
    if (error instanceof StoreUnavailable) throw error;
    const cause = lastError && lastError !== error ? lastError : (error as Error);
    throw new StoreUnavailable(`Cannot reach Redis at ${target.display}: ${cause.message}`);
  }
  return { client, target };
}
