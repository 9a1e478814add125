import type { AppConfig } from '../config/config.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded-postgres.js';
import { ensureDatabase, migrate } from './migrator.js';

export interface PreparedDatabase {
  config: AppConfig;
  embedded: EmbeddedServer | null;
}

/**
 * Makes sure there is a migrated database before the app starts: the
 * embedded PostgreSQL when DATABASE_URL is unset, then every pending
 * migration (under an advisory lock shared by all API processes).
 */
export async function prepareDatabase(config: AppConfig, log: (s: string) => void): Promise<PreparedDatabase> {
  let embedded: EmbeddedServer | null = null;
  let url = config.databaseUrl;
  if (!url) {
    log(`DATABASE_URL is not set: starting the embedded PostgreSQL (data in ${config.embedded.dir})`);
    embedded = await startEmbeddedPostgres({ dir: config.embedded.dir, port: config.embedded.port, log: () => {} });
    url = embedded.url('kidogo');
    await ensureDatabase(url);
  }
  await migrate(url, log);
  return { config: { ...config, databaseUrl: url }, embedded };
}
