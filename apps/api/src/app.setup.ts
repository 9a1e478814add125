import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import type { AppConfig } from './config/config.js';
import { AllExceptionsFilter } from './common/errors.js';

export const API_PREFIX = 'payg';

/** Everything that makes the HTTP surface; main.ts and the tests both call it. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.setGlobalPrefix(API_PREFIX);
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Replies are per user and never cached by the server: no SHA-1 of every body.
  app.set('etag', false);
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { extended: true, limit: '1mb' });
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Mantine injects its CSS variables in style tags.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  // Replies carry ID numbers, phone numbers and keys: no browser or proxy cache keeps them.
  app.use(`/${API_PREFIX}`, (_req: unknown, res: { setHeader(k: string, v: string): void }, next: () => void) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  if (config.corsOrigins.length) {
    app.enableCors({ origin: config.corsOrigins, credentials: true });
  }
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  const doc = new DocumentBuilder()
    .setTitle('Kidogo API')
    .setDescription(
      'The /payg contract of Kidogo, the pay-as-you-go device financing back office. ' +
        'Sign in with POST /payg/authenticate and send the access token as a bearer token; ' +
        'the mobile-money receiver and the Odyssey export use the organization API key in X-API-Key.',
    )
    .setVersion(config.version)
    .addBearerAuth()
    .addApiKey({ type: 'apiKey', name: 'X-API-Key', in: 'header' }, 'api-key')
    .build();
  const document = SwaggerModule.createDocument(app, doc);
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/docs-json`,
    customSiteTitle: 'Kidogo API',
  });
}
