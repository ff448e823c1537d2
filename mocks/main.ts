/** What `npm start` runs (through ./cli.ts): runs the stateful mock until SIGINT, SIGTERM or SIGHUP, then shuts down gracefully. */
import { parsedOrExit } from '../package/command-line.js';
import { mockCommand, parseMockArgs, readSeedFile } from './config.js';
import { createLogger, logListening, stdoutDrained } from './http/logger.js';
import { createMockServer, defaultReplicaName, SeedError } from './server.js';
import { startSummary, summaryLines } from './start-summary.js';
import { maskUrl } from './stores/redis-target.js';
import { cacheDirectory } from '../package/root.js';

async function main(): Promise<void> {
  const options = parsedOrExit(() => parseMockArgs(process.argv.slice(2), mockCommand()));
  const { seedFile, stateFile, storeUrl, storePrefix, discardUnkeptRecords, ...serverOptions } = options;
  // The spec's parsed value kept for the next start, beside Node's compile cache (./cli.ts).
  serverOptions.parsedCache = cacheDirectory();
  if (seedFile) serverOptions.seed = readSeedFile(seedFile);
  if (stateFile) {
    const logger = (serverOptions.logger = createLogger(serverOptions.logLevel ?? 'info'));
    // Loaded only for a state file (its format, its lock, zlib's checksum), as Redis's client below.
    const { openStateFile } = await import('./stores/state-file.js');
    const store = (serverOptions.store = await openStateFile(stateFile, { logger }));
    // Lost records are worth more than a log line: whoever started the mock reads stderr.
    if (store.damage) process.stderr.write(`plant-store-mock: ${store.damage}\n`);
    serverOptions.seedOnlyIfEmpty = true;
    // Written by a run on another spec, maybe: what this one cannot serve refuses the start, or goes.
    serverOptions.unkept = { file: stateFile, discard: discardUnkeptRecords ?? false };
  } else if (storeUrl !== 'memory') {
    const logger = (serverOptions.logger = createLogger(serverOptions.logLevel ?? 'info'));
    // Loaded only for a Redis store, so a mock in memory starts without a Redis client.
    const { openRedisStore } = await import('./stores/redis.js');
    // Unreachable: StoreUnavailable naming the URL with the password masked, printed below (exit 1).
    serverOptions.store = await openRedisStore({ url: storeUrl, prefix: storePrefix, logger });
    // The journal is the sandbox's too: the inspector of any replica shows every replica's traffic.
    const { openRedisJournal } = await import('./admin/redis-journal.js');
    serverOptions.journal = await openRedisJournal({ url: storeUrl, prefix: storePrefix, replica: serverOptions.replica ?? defaultReplicaName() });
    // Every replica starts with the same --seed: the first one seeds, the others find the records.
    serverOptions.seedOnlyIfEmpty = true;
  }
  let mock;
  try {
    mock = await createMockServer(serverOptions);
  } catch (error) {
    if (error instanceof SeedError) throw new Error(`The seed file ${seedFile} is invalid. ${error.message}`);
    throw error;
  }
  const storeText = serverOptions.proxy
    ? `none (proxy to ${maskUrl(serverOptions.proxy.upstream)})`
    : stateFile
      ? `state file ${stateFile}`
      : storeUrl === 'memory'
        ? 'memory (lost at exit)'
        : `redis ${maskUrl(storeUrl)} (prefix ${storePrefix})`;
  const summary = startSummary(mock.url, mock.engine, serverOptions.tokens?.length ?? 0, storeText);
  // A person at a terminal reads lines; a pipe or a collector gets one structured line.
  if (process.stderr.isTTY) process.stderr.write(`${summaryLines(summary).join('\n')}\n`);
  else mock.logger.info(summary, 'started');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      mock.logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    mock.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    mock.close().then(
      async () => {
        // What stdout still holds would be lost at exit: give a slow reader a moment to take it.
        mock.logger.flush();
        await stdoutDrained(2000);
        process.exit(0);
      },
      (error: unknown) => {
        mock.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // SIGHUP is what a closing terminal sends `npm start`: drain as on SIGTERM, so what was acknowledged is answered and the recording written.
  process.on('SIGHUP', () => stop('SIGHUP'));
  // Last: whoever waits for this line may signal at once, and the signal must find its handler.
  logListening(mock.logger, mock.url);
}

main().catch((error: unknown) => {
  process.stderr.write(`plant-store-mock: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
