import { Controller, Delete, Get, Module, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DOCUMENT_FILE_FIELD,
  DOCUMENT_KINDS,
  DOCUMENT_MAX_BYTES,
  DOCUMENTS_PER_CUSTOMER_MAX,
  ZCustomerDocumentReplySchema,
  ZCustomerDocumentsReplySchema,
  ZDocumentFileQuerySchema,
  ZDocumentUploadSchema,
  ZMessageReplySchema,
} from '@kidogo/contracts';
import { z } from 'zod';
import type { HttpReply, HttpRequest } from '../common/http.js';
import { CurrentUser, OrgId, Roles, type AuthUser } from '../common/tenancy.js';
import { assertCleanInput, Endpoint, parseOrThrow, ValidParams, ValidQuery, zPathId } from '../common/validation.js';
import { CustomerDocumentsService } from './customer-documents.service.js';
import { DocumentUploadInterceptor, requireDocument } from './document-upload.js';

const ZCustomerParams = zPathId('id');
const ZDocumentParams = ZCustomerParams.extend(zPathId('document_id').shape);
type CustomerParams = z.output<typeof ZCustomerParams>;
type DocumentParams = z.output<typeof ZDocumentParams>;

const MB = DOCUMENT_MAX_BYTES / (1024 * 1024);

/** A header-safe file name: the ASCII one in filename, the real one in filename* (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A customer's documents (README "Customer documents"). */
@ApiTags('customers')
@Controller('customers/:id/documents')
export class CustomerDocumentsController {
  constructor(private readonly documents: CustomerDocumentsService) {}

  @Get()
  @Endpoint({
    summary: "A customer's documents, newest first (without the files)",
    params: ZCustomerParams,
    response: ZCustomerDocumentsReplySchema,
    errors: { 404: 'No such customer in your organization' },
  })
  list(@OrgId() orgId: string, @ValidParams() p: CustomerParams) {
    return this.documents.list(orgId, p.id);
  }

  @Post()
  @UseInterceptors(DocumentUploadInterceptor)
  @Endpoint({
    summary: 'Add a document to a customer: a photo (JPEG, PNG or WebP) or a PDF',
    description:
      `multipart/form-data: the file in "${DOCUMENT_FILE_FIELD}" (at most ${MB} MB; its type is read from its first bytes, not its name), ` +
      `"kind" (one of ${DOCUMENT_KINDS.join(', ')}) and an optional "note" (200 characters). At most ${DOCUMENTS_PER_CUSTOMER_MAX} ` +
      'documents a customer; the same file twice for one customer is refused. Audited (customer.document_added).',
    params: ZCustomerParams,
    files: [DOCUMENT_FILE_FIELD],
    body: ZDocumentUploadSchema,
    response: ZCustomerDocumentReplySchema,
    status: 201,
    errors: {
      400: 'The file is missing, empty or neither a photo nor a PDF; kind is missing or unknown; note is too long',
      404: 'No such customer in your organization',
      409: "The same file is already there, the customer has the most documents allowed, or the customer's personal data was erased",
      413: `The file is larger than ${MB} MB`,
    },
  })
  add(@OrgId() orgId: string, @ValidParams() p: CustomerParams, @Req() req: HttpRequest, @CurrentUser() user: AuthUser) {
    const { file, fields } = requireDocument(req);
    assertCleanInput(fields, 'body');
    return this.documents.add(orgId, p.id, parseOrThrow(ZDocumentUploadSchema, fields), file, user);
  }

  @Get(':document_id/file')
  @Endpoint({
    summary: 'The document itself, to show (inline) or with download=true as an attachment',
    params: ZDocumentParams,
    query: ZDocumentFileQuerySchema,
    produces: 'image/jpeg, image/png, image/webp, application/pdf',
    errors: { 404: 'No such document of this customer in your organization' },
  })
  async file(@OrgId() orgId: string, @ValidParams() p: DocumentParams, @ValidQuery() q: z.output<typeof ZDocumentFileQuerySchema>, @Res() reply: HttpReply) {
    const doc = await this.documents.file(orgId, p.id, p.document_id);
    await reply
      .status(200)
      .header('Content-Type', doc.content_type)
      .header('Content-Disposition', disposition(q.download ? 'attachment' : 'inline', doc.file_name))
      // Shown in a page of its own, a stored file can run nothing.
      .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('Content-Length', String(doc.content.length))
      .send(doc.content);
  }

  @Delete(':document_id')
  @Roles('owner', 'admin', 'super_admin')
  @Endpoint({
    summary: 'Delete one of a customer\'s documents (owners and admins). Audited (customer.document_deleted)',
    params: ZDocumentParams,
    response: ZMessageReplySchema,
    errors: { 403: 'Not an owner or admin', 404: 'No such document of this customer in your organization' },
  })
  remove(@OrgId() orgId: string, @ValidParams() p: DocumentParams, @CurrentUser() user: AuthUser) {
    return this.documents.remove(orgId, p.id, p.document_id, user);
  }
}

@Module({ controllers: [CustomerDocumentsController], providers: [CustomerDocumentsService] })
export class CustomerDocumentsModule {}
