import {
  ArgumentsHost,
  Catch,
  ConflictException,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { pathOf, type HttpReply, type HttpRequest } from './http.js';
import { Prisma } from '../generated/prisma/client.js';

/** The 409 of a change to a customer whose personal data was erased (POST /customers/{id}/erase). */
export const ERASED_CUSTOMER = "This customer's personal data was erased: if they come back, register them again as a new customer";

/** The errors services throw; the filter below turns every error into `{detail, message}`. */
export const Errors = {
  notFound: (what: string) => new NotFoundException({ detail: `${what} not found`, message: `${what} not found` }),
  conflict: (detail: string) => new ConflictException({ detail, message: detail }),
  badRequest: (field: string, message: string) =>
    new HttpException(
      { detail: `${field}: ${message}`, message: `${field}: ${message}`, errors: [{ field, message }] },
      HttpStatus.BAD_REQUEST,
    ),
  forbidden: (detail: string) => new HttpException({ detail, message: detail }, HttpStatus.FORBIDDEN),
  unauthorized: (detail = 'Not authenticated') => new HttpException({ detail, message: detail }, HttpStatus.UNAUTHORIZED),
  /** Another service the request depended on (M-Pesa) refused or did not answer. */
  badGateway: (detail: string) => new HttpException({ detail, message: detail }, HttpStatus.BAD_GATEWAY),
  tooMany: (detail: string, retryAfterSeconds: number) =>
    new HttpException({ detail, message: detail, retry_after: retryAfterSeconds }, HttpStatus.TOO_MANY_REQUESTS),
};

const PRISMA_FIELD_NAMES: Record<string, string> = {
  organization_id_id_number: 'id_number',
  organization_id_serial_number: 'serial_number',
  organization_id_transaction_code: 'transaction_code',
};

function uniqueFields(e: Prisma.PrismaClientKnownRequestError): string {
  const meta = e.meta as { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } | undefined;
  const fields =
    meta?.driverAdapterError?.cause?.constraint?.fields ??
    (Array.isArray(meta?.target) ? (meta.target as string[]) : typeof meta?.target === 'string' ? [meta.target] : []);
  const names = fields.map((f) => f.replace(/"/g, '')).filter((f) => f !== 'organization_id');
  return names.map((n) => PRISMA_FIELD_NAMES[n] ?? n).join(', ') || 'value';
}

/** body-parser error types (http-errors `type`) → what the client is told about its body. */
const BODY_PARSER_ERRORS: Record<string, string> = {
  'entity.parse.failed': 'malformed JSON',
  'entity.too.large': 'request body is too large (at most 1 MB)',
  'parameters.too.many': 'too many form fields',
  'encoding.unsupported': 'unsupported content encoding',
  'charset.unsupported': 'unsupported charset (send UTF-8)',
  'entity.verify.failed': 'could not be verified',
  'request.aborted': 'the request was aborted',
  'request.size.invalid': 'the body is shorter or longer than its Content-Length',
  'stream.encoding.set': 'could not be read',
  'stream.not.readable': 'could not be read',
  'querystring.parse.rangeError': 'is nested too deeply',
};

interface ErrorBody {
  detail: unknown;
  message: string;
  [k: string]: unknown;
}

export function toErrorReply(exception: unknown): { status: number; body: ErrorBody; log: boolean } {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const cause = exception.cause as { type?: string } | undefined;
    if (status === 400 && (cause?.type === 'entity.parse.failed' || exception.cause instanceof SyntaxError)) {
      return { status, body: { detail: 'body: malformed JSON', message: 'body: malformed JSON' }, log: false };
    }
    // body-parser's errors, which Nest wraps in an HttpException: say what was wrong with the body.
    const zlib = typeof (cause as { code?: unknown } | undefined)?.code === 'string' && (cause as { code: string }).code.startsWith('Z_');
    const bodyProblem = cause?.type ? BODY_PARSER_ERRORS[cause.type] : zlib ? 'does not match its Content-Encoding' : undefined;
    if (bodyProblem) {
      const m = `body: ${bodyProblem}`;
      return { status, body: { detail: m, message: m }, log: false };
    }
    const res = exception.getResponse();
    if (typeof res === 'string') return { status, body: { detail: res, message: res }, log: false };
    const r = res as Record<string, unknown>;
    const detail = r.detail ?? r.message ?? exception.message;
    const message =
      typeof r.message === 'string'
        ? r.message
        : typeof detail === 'string'
          ? detail
          : Array.isArray(r.message)
            ? r.message.join('; ')
            : exception.message;
    const { statusCode: _s, error: _e, ...rest } = r;
    return { status, body: { ...rest, detail, message }, log: false };
  }
  if (exception instanceof Prisma.PrismaClientKnownRequestError) {
    switch (exception.code) {
      case 'P2002': {
        const f = uniqueFields(exception);
        const m = `A record with this ${f} already exists`;
        return { status: 409, body: { detail: m, message: m }, log: false };
      }
      case 'P2025':
        return { status: 404, body: { detail: 'Record not found', message: 'Record not found' }, log: false };
      case 'P2003': {
        const m = 'This record is referenced by other records';
        return { status: 409, body: { detail: m, message: m }, log: false };
      }
      case 'P2000': {
        const m = 'A value is too long for its field';
        return { status: 400, body: { detail: m, message: m }, log: false };
      }
    }
  }
  // Fastify's own (a path it cannot decode) and multer's errors carry an HTTP status of their own.
  const e = exception as { status?: number; statusCode?: number; type?: string; code?: string; message?: string; field?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    let m = e.message ?? 'Bad request';
    if (e.type && BODY_PARSER_ERRORS[e.type]) m = `body: ${BODY_PARSER_ERRORS[e.type]}`;
    else if (e.code === 'FST_ERR_BAD_URL') m = 'path: a parameter is not valid percent-encoded UTF-8';
    return { status, body: { detail: m, message: m }, log: false };
  }
  if (e?.code === 'LIMIT_FILE_SIZE') {
    const m = `${e.field ?? 'file'}: file is too large`;
    return { status: 413, body: { detail: m, message: m }, log: false };
  }
  if (typeof e?.code === 'string' && e.code.startsWith('LIMIT_')) {
    const m = `${e.field ?? 'file'}: ${e.message}`;
    return { status: 400, body: { detail: m, message: m }, log: false };
  }
  return { status: 500, body: { detail: 'Internal server error', message: 'Internal server error' }, log: true };
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<HttpReply>();
    const req = ctx.getRequest<HttpRequest>();
    const { status, body, log } = toErrorReply(exception);
    // The path without its query string: queries carry search terms (names, phone numbers), never worth a log line.
    if (log) this.logger.error(`${req.method} ${pathOf(req)}: ${(exception as Error)?.stack ?? exception}`);
    const res = reply.raw;
    if (res.headersSent) {
      res.end();
      return;
    }
    if (status === 429 && typeof body.retry_after === 'number') res.setHeader('Retry-After', String(body.retry_after));
    if (reply.sent) {
      // A reply taken over for a stream (streamReply) that failed before its first byte.
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(body));
      return;
    }
    void reply.status(status).send(body);
  }
}
