import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigError, loadConfig } from './config/config.js';
import { prepareDatabase } from './database/prepare.js';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
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

  const levels = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    logger: levels.slice(0, levels.indexOf(config.logLevel) + 1),
  });
  configureApp(app, config);
  await app.init();
  const credentials = await app.get(SeedService).run();

  await app.listen(config.port, config.host);
  const base = `http://localhost:${config.port}`;
  logger.log(`Kidogo is up on ${base} (API under ${base}/payg, docs at ${base}/payg/docs)`);
  for (const line of credentials) logger.log(line);
}

bootstrap().catch((e) => {
  console.error(e);
  process.exit(1);
});
