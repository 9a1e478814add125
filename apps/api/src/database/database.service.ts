import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { tenantGuardExtension } from './tenant-guard.extension.js';

function createClient(url: string, max: number) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

export type ScopedClient = ReturnType<typeof scoped>;
const scoped = (c: PrismaClient) => c.$extends(tenantGuardExtension);

/**
 * The application's database access. `db` refuses organization-owned queries
 * that do not name the organization; `platform` is the unguarded client for
 * the super-admin console's cross-organization reads; `read` goes to the
 * read replica (reports, metrics) when DATABASE_READ_URL is set.
 */
@Injectable()
export class DatabaseService implements OnModuleDestroy {
  readonly platform: PrismaClient;
  readonly db: ScopedClient;
  readonly read: ScopedClient;
  private readonly readClient: PrismaClient | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.databaseUrl) throw new Error('DatabaseService needs a database URL');
    this.platform = createClient(config.databaseUrl, config.databasePoolSize);
    this.db = scoped(this.platform);
    this.readClient = config.databaseReadUrl ? createClient(config.databaseReadUrl, config.databasePoolSize) : null;
    this.read = this.readClient ? scoped(this.readClient) : this.db;
  }

  async onModuleDestroy(): Promise<void> {
    await this.platform.$disconnect();
    await this.readClient?.$disconnect();
  }
}
