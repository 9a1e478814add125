import { unlink } from 'node:fs/promises';
import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  mixin,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import multer from 'multer';
import { finalize, type Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Errors } from '../common/errors.js';
import type { HttpReply, HttpRequest } from '../common/http.js';

export type UploadedCsv = Express.Multer.File & { path: string };

/** multer's error as the reply that names the field: 413 for a file over the limit, else 400. */
export function uploadError(field: string, err: unknown, maxBytes: number, tooLargeHint = 'split it into smaller files'): HttpException {
  const e = err as { code?: string; field?: string; message?: string };
  if (e.code === 'LIMIT_FILE_SIZE') {
    const mb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
    const m = `${field}: the file is larger than the upload limit of ${mb} MB; ${tooLargeHint}`;
    return new HttpException({ detail: m, message: m }, HttpStatus.PAYLOAD_TOO_LARGE);
  }
  if (e.code === 'LIMIT_UNEXPECTED_FILE') {
    return Errors.badRequest(field, `send the file in the multipart field "${field}" (got "${e.field ?? ''}")`);
  }
  if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
    return Errors.badRequest(field, `the upload has too many parts (${e.message ?? e.code})`);
  }
  return Errors.badRequest(field, `the upload could not be read (${e.message ?? 'malformed multipart body'})`);
}

/**
 * Receives one multipart file into a temporary file on disk (so a large CSV
 * never sits in memory), refuses it with a clear 413 above MAX_UPLOAD_MB,
 * and deletes the temporary file when the request is done.
 */
export function CsvUploadInterceptor(field: string): Type<NestInterceptor> {
  @Injectable()
  class CsvUpload implements NestInterceptor {
    private readonly upload: ReturnType<ReturnType<typeof multer>['single']>;

    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
      this.upload = multer({
        storage: multer.diskStorage({}),
        limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, parts: 25 },
      }).single(field);
    }

    async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      // multer reads the multipart body from the Node request, which the HTTP layer left unread (app.setup.ts).
      const req = ctx.switchToHttp().getRequest<HttpRequest>().raw;
      const res = ctx.switchToHttp().getResponse<HttpReply>().raw;
      await new Promise<void>((resolve, reject) =>
        this.upload(req as never, res as never, (err?: unknown) => (err ? reject(uploadError(field, err, this.config.maxUploadBytes)) : resolve())),
      ).catch(async (e: unknown) => {
        await removeUpload(req);
        throw e;
      });
      return next.handle().pipe(finalize(() => void removeUpload(req)));
    }
  }
  return mixin(CsvUpload);
}

type WithUpload = IncomingMessage & { file?: UploadedCsv };

async function removeUpload(req: IncomingMessage): Promise<void> {
  const path = (req as WithUpload).file?.path;
  if (path) await unlink(path).catch(() => undefined);
}

/** The file CsvUploadInterceptor received, if the request carried one. */
export const uploadedFile = (req: HttpRequest): UploadedCsv | undefined => (req.raw as WithUpload).file;

/** The uploaded file, or a 400 naming the field when the request carried none. */
export function requireUpload(req: HttpRequest, field: string): UploadedCsv {
  const file = uploadedFile(req);
  if (!file?.path) throw Errors.badRequest(field, `is required: upload the CSV file as multipart/form-data in the field "${field}"`);
  return file;
}
