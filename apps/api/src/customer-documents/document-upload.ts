import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { DOCUMENT_FILE_FIELD, DOCUMENT_MAX_BYTES } from '@kidogo/contracts';
import { uploadError } from '../catalog/csv-upload.js';
import { Errors } from '../common/errors.js';
import type { HttpReply, HttpRequest } from '../common/http.js';
import type { UploadedDocument } from './customer-documents.service.js';

type WithDocument = IncomingMessage & { file?: Express.Multer.File; body?: Record<string, unknown> };

/**
 * Receives a document (multipart field "file", at most DOCUMENT_MAX_BYTES) in
 * memory, with its text fields: a photo or a PDF is small enough, and goes
 * into the database from there. Over the limit: 413 naming the field.
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  private readonly upload = multer({
    storage: multer.memoryStorage(),
    // Browsers send a file's name as UTF-8 ("Kitambulisho cha Chebet.jpg", "Amina's ID.jpg").
    defParamCharset: 'utf8',
    limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 4096 },
  }).single(DOCUMENT_FILE_FIELD);

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    // multer reads the multipart body from the Node request, which the HTTP layer left unread (app.setup.ts).
    const req = ctx.switchToHttp().getRequest<HttpRequest>().raw;
    const res = ctx.switchToHttp().getResponse<HttpReply>().raw;
    await new Promise<void>((resolve, reject) =>
      this.upload(req as never, res as never, (err?: unknown) =>
        err ? reject(uploadError(DOCUMENT_FILE_FIELD, err, DOCUMENT_MAX_BYTES, 'send a smaller photo or scan')) : resolve(),
      ),
    );
    return next.handle();
  }
}

/** The document and the text fields sent with it, or a 400 naming the file field when there is none. */
export function requireDocument(req: HttpRequest): { file: UploadedDocument; fields: Record<string, unknown> } {
  const raw = req.raw as WithDocument;
  if (!raw.file?.buffer) {
    throw Errors.badRequest(DOCUMENT_FILE_FIELD, `is required: send the photo or PDF as multipart/form-data in the field "${DOCUMENT_FILE_FIELD}"`);
  }
  return { file: { buffer: raw.file.buffer, originalname: raw.file.originalname }, fields: { ...raw.body } };
}
