import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import request from 'supertest';
import { AppModule } from '../../src/app.module.js';
import { configureApp, httpAdapter } from '../../src/app.setup.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { recordRoutes } from './routes.js';

export const TEST_JWT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
export const TEST_ENCRYPTION_KEY = '0f'.repeat(32);

export interface TestApp {
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  baseUrl: string;
  db: DatabaseService;
  config: AppConfig;
  databaseUrl: string;
  close: () => Promise<void>;
}

function dbUrl(name: string): string {
  const u = new URL(process.env.KIDOGO_TEST_ADMIN_URL!);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh database cloned from the migrated template. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${process.env.KIDOGO_TEST_RUN}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.KIDOGO_TEST_ADMIN_URL });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${process.env.KIDOGO_TEST_TEMPLATE}"`);
        break;
      } catch (e) {
        // Two files cloning the template at the same instant: try again.
        if (attempt > 20 || !/being accessed by other users/.test((e as Error).message)) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return dbUrl(name);
}

export function testConfig(databaseUrl: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SEED_DEMO: 'false',
    OUTBOX_ENABLED: 'false',
    DATABASE_POOL_SIZE: '5',
    WEB_DIST: '/nonexistent',
    // Where M-Pesa Express results would be posted: requests need it (test/mpesa-express.e2e-spec.ts sends '' to unset it).
    PUBLIC_URL: 'https://kidogo.test',
    // No test calls Safaricom: an organization not pointed at a fake one reaches a closed port.
    MPESA_EXPRESS_BASE_URL: 'http://127.0.0.1:9',
    MTN_MOMO_BASE_URL: 'http://127.0.0.1:9',
    AIRTEL_MONEY_BASE_URL: 'http://127.0.0.1:9',
    // No test sends real mail: one not given a fake mail server (test/support/fake-smtp.ts) reaches a closed port.
    SMTP_URL: 'smtp://127.0.0.1:9',
    ...env,
  });
}

/** The real application on a real HTTP port, over its own database. */
export async function createTestApp(opts: { env?: Record<string, string>; databaseUrl?: string } = {}): Promise<TestApp> {
  const databaseUrl = opts.databaseUrl ?? (await createTestDatabase());
  const config = testConfig(databaseUrl, opts.env);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), httpAdapter(config), {
    bodyParser: false,
    logger: process.env.TEST_LOGS ? ['error', 'warn', 'log'] : false,
  });
  recordRoutes(app);
  await configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer();
  const port = (server.address() as { port: number }).port;
  return {
    app,
    http: request(server),
    baseUrl: `http://127.0.0.1:${port}`,
    db: app.get(DatabaseService),
    config,
    databaseUrl,
    close: () => app.close(),
  };
}

/** An empty database (no migrations) on the test server. */
export async function createEmptyDatabase(label = 'empty'): Promise<string> {
  const name = `t_${process.env.KIDOGO_TEST_RUN}_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.KIDOGO_TEST_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return dbUrl(name);
}
