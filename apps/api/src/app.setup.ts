import { createReadStream, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { NotFoundException } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import fastifyStatic from '@fastify/static';
import bodyParser from 'body-parser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from './config/config.js';
import { AllExceptionsFilter, toErrorReply } from './common/errors.js';
import { pathOf } from './common/http.js';
import { finishDocument } from './common/openapi.js';

export const API_PREFIX = 'payg';

const isApi = (path: string) => path === `/${API_PREFIX}` || path.startsWith(`/${API_PREFIX}/`);
/** The API's own pages: the OpenAPI browser (Swagger UI) and its files. */
const isDocsPage = (path: string) => path === `/${API_PREFIX}/docs` || path.startsWith(`/${API_PREFIX}/docs/`);

/** Request bodies (JSON and forms) up to this size. */
const BODY_LIMIT = '1mb';

/**
 * The HTTP framework: Fastify. Per request it costs a quarter of what
 * Express did in the same Nest application (0.035 against 0.145 ms of CPU
 * for a guarded JSON reply, measured on the benchmark machine), which on a
 * list request is a fifth of the API's own time. Routes are matched as
 * Express matched them, with or without a trailing slash; path parameters
 * may be long (a bad one gets a 400 from validation, not a 404 here).
 */
export function httpAdapter(config: AppConfig): FastifyAdapter {
  const tp = config.trustProxy;
  return new FastifyAdapter({
    // TRUST_PROXY as Express read it: a number trusts that many hops in front of the API.
    trustProxy: typeof tp === 'number' ? (_address: string, hop: number) => hop < tp : tp,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Node's own limit for receiving a whole request, which Fastify turns off by default: a client that
    // trickles its request (slowloris) is cut off after 5 minutes, a large CSV upload has time enough.
    requestTimeout: 300_000,
    logger: false,
    // A path Fastify cannot decode (bad percent-encoding) is answered like every other error.
    frameworkErrors: (error: Error, _req: FastifyRequest, reply: FastifyReply) => {
      const { status, body } = toErrorReply(error);
      void reply.code(status).send(body);
    },
  });
}

type Headers = [string, string | number | readonly string[]][];

/**
 * What an API reply carries (JSON, a CSV, a PDF, a document's file): the
 * headers OWASP's REST Security Cheat Sheet gives for an API. A reply of the
 * API is never a page, so nothing in it may run or be framed, and no cache
 * keeps it (it carries ID numbers, phone numbers and keys). The headers that
 * only a page reads (referrer, DNS prefetch, the window's origin isolation)
 * stay on the web app's pages: on a list request the full page set cost the
 * client about 9 µs more to read than this one (18 headers against 10).
 */
function apiHeaders(page: Headers): Headers {
  const fromPage = new Map(page);
  return [
    ['Cache-Control', 'no-store'],
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Strict-Transport-Security', fromPage.get('Strict-Transport-Security')!],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
  ];
}

/**
 * The response headers of helmet for these options, worked out once: they do
 * not depend on the request, and setting them is all helmet does.
 */
function securityHeaders(): Headers {
  const headers = new Map<string, string | number | readonly string[]>();
  const res = {
    setHeader: (k: string, v: string | number | readonly string[]) => headers.set(k, v),
    removeHeader: (k: string) => headers.delete(k),
  };
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
  })({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...headers];
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Request bodies are read by body-parser, as before the move to Fastify: the
 * same limits, charsets, Content-Encodings and errors (see toErrorReply).
 * A multipart body is left unread for multer (CsvUploadInterceptor), and a
 * body of any other type is ignored (the handler's validation then names
 * what is missing).
 */
function registerBodyParsers(fastify: FastifyInstance): void {
  const parse = (middleware: Middleware) => (req: FastifyRequest, _payload: unknown, done: (err: Error | null, body?: unknown) => void) =>
    middleware(req.raw, {} as ServerResponse, (err) => done((err as Error) ?? null, (req.raw as IncomingMessage & { body?: unknown }).body));
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', parse(bodyParser.json({ limit: BODY_LIMIT }) as Middleware));
  fastify.addContentTypeParser('application/x-www-form-urlencoded', parse(bodyParser.urlencoded({ extended: true, limit: BODY_LIMIT }) as Middleware));
  fastify.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null));
}

/**
 * The web application's files (WEB_DIST) on the same port as the API: every
 * path outside /payg and /assets that is not a file gets index.html, where
 * the browser application routes it; an unknown GET under /payg gets the
 * API's 404, a missing file under /assets a plain 404.
 */
async function serveWeb(fastify: FastifyInstance, webDist: string): Promise<void> {
  const index = resolve(webDist, 'index.html');
  if (!existsSync(index)) return;
  await fastify.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: '1h', decorateReply: false });
  const page = (req: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(req);
    if (isApi(path)) {
      const { status, body } = toErrorReply(new NotFoundException(`Cannot ${req.method} ${path}`));
      return reply.code(status).send(body);
    }
    // A build's files that are not there (a page loaded before a new release asks for its old chunks): a 404, not
    // the page, which the browser would refuse to run as a script and report as a confusing error.
    if (path.startsWith('/assets/')) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // A customer's own page (its link is their key): no search engine lists it.
    if (path.startsWith('/my/')) reply.header('X-Robots-Tag', 'noindex, nofollow');
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(createReadStream(index));
  };
  fastify.get('/', page);
  fastify.get('/*', page);
}

/** Everything that makes the HTTP surface; main.ts and the tests both call it, before app.init(). */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  app.setGlobalPrefix(API_PREFIX);
  registerBodyParsers(fastify);
  const pageHeaders = securityHeaders();
  const replyHeaders = apiHeaders(pageHeaders);
  fastify.addHook('onRequest', (req, reply, done) => {
    const path = pathOf(req);
    const res = reply.raw;
    for (const [k, v] of isApi(path) && !isDocsPage(path) ? replyHeaders : pageHeaders) res.setHeader(k, v);
    done();
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
  const document = finishDocument(SwaggerModule.createDocument(app, doc));
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/docs-json`,
    customSiteTitle: 'Kidogo API',
  });
  await serveWeb(fastify, config.webDist);
}
