import path from 'node:path';
import { spawnTs, stopChild, waitForReady } from './child.js';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

/** Starts the embedded PostgreSQL with its data in `dataDir` and a database named hf. */
export async function startEmbeddedPostgres(dataDir: string): Promise<RunningService> {
  const child = spawnTs('scripts/services/embedded-postgres.process.ts', [path.resolve(dataDir)]);
  const ready = await waitForReady<{ type: 'ready'; url: string }>(child, 'Embedded PostgreSQL');
  return {
    url: ready.url,
    stop: async () => {
      await stopChild(child, 8_000);
    },
  };
}
