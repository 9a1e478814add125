import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { tenantGuardExtension } from './tenant-guard.extension.js';

/** Runs one statement and returns its rows: DatabaseService.query, or a plain pg client in the benchmark. */
export type Run = <T = Record<string, unknown>>(sql: Prisma.Sql) => Promise<T[]>;

/**
 * The two ways to run a list's statements: `prepared` for those whose
 * parameters are keys and numbers (planned once per connection: planning the
 * customer list's statement took longer than running it), `query` for those
 * whose best plan depends on the values (a search pattern).
 */
export interface Runs {
  query: Run;
  prepared: Run;
}

/**
 * Values as Prisma's $queryRaw returns them, so the mappers take rows from
 * either: dates at UTC midnight, numerics as Decimal, bigint counts as numbers.
 */
const PARSERS: Record<number, (v: string) => unknown> = {
  1082: (v) => new Date(`${v}T00:00:00.000Z`),
  1700: (v) => new Prisma.Decimal(v),
  20: (v) => Number(v),
};
/** How the raw statements read numeric, date and bigint columns (the benchmarks read them so too). */
export const TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => PARSERS[oid] ?? pg.types.getTypeParser(oid, format),
};

/**
 * Named (prepared) statements for the hot paths' fixed statements: PostgreSQL
 * parses and plans each text once per connection instead of on every call
 * (the payment pipeline's statements join four tables and carry five data-
 * modifying CTEs). Only for statements whose parameters are keys, where a
 * generic plan is as good as a custom one: never for searches.
 */
const names = new Map<string, string>();
function named(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < 2000) {
    name = `k${names.size.toString(36)}`;
    names.set(text, name);
  }
  return name;
}

const poolLogger = new Logger('Database');

function createClient(url: string, max: number) {
  // One pool for Prisma and for the raw statements of the hot paths.
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that PostgreSQL ends (a restart, a failover, an administrator) is reported here; unheard, the
  // error would end the process. The pool drops that connection and opens a new one when next needed.
  pool.on('error', (e) => poolLogger.warn(`an idle database connection was closed: ${e.message}`));
  return { pool, client: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

export type ScopedClient = ReturnType<typeof scoped>;
const scoped = (c: PrismaClient) => c.$extends(tenantGuardExtension);

/**
 * The application's database access. `db` refuses organization-owned queries
 * that do not name the organization; `platform` is the unguarded client for
 * the super-admin console's cross-organization reads; `read` goes to the
 * read replica (reports, metrics) when DATABASE_READ_URL is set.
 *
 * `query` / `readQuery` run one raw statement straight on the pool, for the
 * paths where Prisma's own work per query (about 0.4 ms of CPU, measured
 * against pg on the same statement) would be most of the request: lists,
 * the session lookup, the payment pipeline. Like every raw statement here,
 * they must name the organization in their WHERE clause.
 */
@Injectable()
export class DatabaseService implements OnModuleDestroy {
  readonly platform: PrismaClient;
  readonly db: ScopedClient;
  readonly read: ScopedClient;
  readonly pool: pg.Pool;
  private readonly readPool: pg.Pool | null;
  private readonly readClient: PrismaClient | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.databaseUrl) throw new Error('DatabaseService needs a database URL');
    const main = createClient(config.databaseUrl, config.databasePoolSize);
    this.pool = main.pool;
    this.platform = main.client;
    this.db = scoped(this.platform);
    const replica = config.databaseReadUrl ? createClient(config.databaseReadUrl, config.databasePoolSize) : null;
    this.readPool = replica?.pool ?? null;
    this.readClient = replica?.client ?? null;
    this.read = this.readClient ? scoped(this.readClient) : this.db;
  }

  /** A Run on the pool `pick` returns (read when the statement runs: the read pool is set in the constructor), prepared or not. */
  private runOn(pick: () => pg.Pool, prepare: boolean): Run {
    return async <T>(sql: Prisma.Sql) =>
      (await pick().query({ name: prepare ? named(sql.text) : undefined, text: sql.text, values: sql.values, types: TYPES })).rows as T[];
  }

  /** One raw statement on the primary. */
  readonly query: Run = this.runOn(() => this.pool, false);

  /** One raw write on the primary; returns how many rows it changed. */
  async execute(sql: Prisma.Sql): Promise<number> {
    return (await this.pool.query({ text: sql.text, values: sql.values })).rowCount ?? 0;
  }

  /** One raw statement on the primary, prepared (see `named`): for fixed statements with key parameters. */
  readonly prepared: Run = this.runOn(() => this.pool, true);

  /** `query` and `prepared` together, for the lists (see Runs). */
  readonly runs: Runs = { query: this.query, prepared: this.prepared };

  /** One raw statement on the read replica when configured (metrics, reports), else the primary. */
  readonly readQuery: Run = this.runOn(() => this.readPool ?? this.pool, false);

  /** `prepared` on the read replica when configured, else the primary: keyed dashboard statements. */
  readonly readPrepared: Run = this.runOn(() => this.readPool ?? this.pool, true);

  /**
   * One raw statement on the read connection, rows as arrays in column order:
   * for streaming exports, where a million row objects (and Prisma's per-row
   * work) would be garbage enough to double the process's memory.
   */
  async readArrays(sql: Prisma.Sql): Promise<unknown[][]> {
    return (await (this.readPool ?? this.pool).query({ text: sql.text, values: sql.values, types: TYPES, rowMode: 'array' })).rows as unknown[][];
  }

  /**
   * Runs `work` in one transaction on one pooled connection with raw
   * statements (prepared: the transactions are the pipeline's and the token
   * endpoints', all keyed lookups and writes); commits when it returns,
   * rolls back when it throws.
   */
  async transaction<T>(work: (run: Run) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const run: Run = async <R>(sql: Prisma.Sql) =>
      (await client.query({ name: named(sql.text), text: sql.text, values: sql.values, types: TYPES })).rows as R[];
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(run);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.platform.$disconnect();
    await this.readClient?.$disconnect();
    await this.pool.end().catch(() => undefined);
    await this.readPool?.end().catch(() => undefined);
  }
}
