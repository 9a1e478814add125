import 'reflect-metadata';
import cluster from 'node:cluster';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { prepareDatabase } from './database/prepare.js';
import { AppModule } from './app.module.js';
import { configureApp, httpAdapter } from './app.setup.js';
import { SeedService } from './seed/seed.service.js';

async function bootstrap(): Promise<void> {
  const logger = new Logger('Kidogo');
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const prepared = await prepareDatabase(config, (s) => logger.log(s));
  config = prepared.config;
  if (cluster.isPrimary && config.workers > 1) return supervise(config, logger);

  const levels = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), httpAdapter(config), {
    bodyParser: false,
    logger: levels.slice(0, levels.indexOf(config.logLevel) + 1),
  });
  await configureApp(app, config);
  await app.init();
  const credentials = await app.get(SeedService).run();

  await app.listen(config.port, config.host);
  if (cluster.isWorker && cluster.worker!.id !== 1) return;
  const base = `http://localhost:${config.port}`;
  logger.log(`Kidogo is up on ${base} (API under ${base}/payg, docs at ${base}/payg/docs)`);
  for (const line of credentials) logger.log(line);
}

/**
 * API_WORKERS > 1: this process only starts the database (the embedded one
 * when DATABASE_URL is unset) and migrates it, then runs that many API
 * processes sharing the port (node:cluster hands each new connection to the
 * next one). They share nothing but PostgreSQL, exactly like replicas behind
 * a load balancer, so one Node process per core is used without any other
 * change. A process that dies is replaced.
 */
function supervise(config: AppConfig, logger: Logger): void {
  let stopping = false;
  const env = { DATABASE_URL: config.databaseUrl! };
  for (let i = 0; i < config.workers; i++) cluster.fork(env);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error(`API process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => cluster.fork(env), 1000);
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(sig);
      const wait = setInterval(() => {
        if (Object.keys(cluster.workers ?? {}).length === 0) {
          clearInterval(wait);
          process.exit(0);
        }
      }, 50);
    });
  }
  logger.log(`Kidogo runs ${config.workers} API processes on port ${config.port}`);
}

bootstrap().catch((e) => {
  console.error(e);
  process.exit(1);
});
