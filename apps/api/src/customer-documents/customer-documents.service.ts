import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DOCUMENT_KIND_LABELS,
  DOCUMENTS_PER_CUSTOMER_MAX,
  type CustomerDocument,
  type CustomerDocumentReply,
  type CustomerDocumentsReply,
  type DocumentContentType,
  type DocumentUploadInput,
} from '@kidogo/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { DatabaseService } from '../database/database.service.js';
import { AuditService } from '../audit/audit.service.js';
import { Errors } from '../common/errors.js';
import type { AuthUser } from '../common/tenancy.js';
import { readDocumentContent } from './document-content.js';

/** The columns of a document without its file: what lists and replies carry. */
const META = {
  id: true,
  customer_id: true,
  kind: true,
  file_name: true,
  content_type: true,
  size_bytes: true,
  sha256: true,
  note: true,
  uploaded_by: true,
  created_at: true,
} as const;

type MetaRow = Prisma.CustomerDocumentGetPayload<{ select: typeof META }>;

const toDocument = (r: MetaRow): CustomerDocument => ({
  document_id: r.id,
  customer_id: r.customer_id,
  kind: r.kind,
  file_name: r.file_name,
  content_type: r.content_type as DocumentContentType,
  size_bytes: r.size_bytes,
  sha256: r.sha256,
  note: r.note,
  uploaded_by: r.uploaded_by,
  uploaded_at: r.created_at.toISOString(),
});

const EXTENSION: Record<DocumentContentType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/**
 * What the file is, from its first bytes: a browser's or a client's word for
 * it (and the file's name) can be anything, and what is stored is served back
 * to other staff's browsers as that type.
 */
export function sniffDocumentType(bytes: Uint8Array): DocumentContentType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return null;
}

/**
 * The file's name as it is kept and offered back on download: its last path
 * part, without control characters, at most 200 characters (the extension
 * kept), and the type's own extension when it has none.
 */
export function documentFileName(original: string | undefined, type: DocumentContentType, kind: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  let name = (original ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  const ext = EXTENSION[type];
  if (!name || name === '.' || name === '..') name = `${kind}.${ext}`;
  if (!/\.[A-Za-z0-9]{1,5}$/.test(name)) name = `${name}.${ext}`;
  if (name.length > 200) {
    const dot = name.lastIndexOf('.');
    const tail = dot > 0 && name.length - dot <= 6 ? name.slice(dot) : '';
    name = name.slice(0, 200 - tail.length) + tail;
  }
  return name;
}

export interface UploadedDocument {
  buffer: Buffer;
  originalname?: string;
}

/**
 * A customer's documents (README "Customer documents"): the ID card, photos,
 * the signed agreement. Any user of the organization adds and reads them;
 * owners and admins delete them. Every change is in the activity log.
 */
@Injectable()
export class CustomerDocumentsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditService,
  ) {}

  async list(orgId: string, customerId: number): Promise<CustomerDocumentsReply> {
    const db = this.database.db;
    const [customer, rows] = await Promise.all([
      db.customer.findUnique({ where: { organization_id_id: { organization_id: orgId, id: customerId } }, select: { id: true } }),
      db.customerDocument.findMany({ where: { organization_id: orgId, customer_id: customerId }, select: META, orderBy: { id: 'desc' } }),
    ]);
    if (!customer) throw Errors.notFound('Customer');
    return { data: rows.map(toDocument), remaining: Math.max(0, DOCUMENTS_PER_CUSTOMER_MAX - rows.length) };
  }

  async add(orgId: string, customerId: number, input: DocumentUploadInput, file: UploadedDocument, actor: AuthUser): Promise<CustomerDocumentReply> {
    if (!file.buffer.length) throw Errors.badRequest('file', 'is empty');
    const type = sniffDocumentType(file.buffer);
    if (!type) throw Errors.badRequest('file', 'must be a photo (JPEG, PNG or WebP) or a PDF');
    const sha256 = createHash('sha256').update(file.buffer).digest('hex');
    const fileName = documentFileName(file.originalname, type, input.kind);
    return this.database.db.$transaction(async (tx) => {
      // The customer's row, locked: two uploads at once cannot both take the last place.
      const [customer] = await tx.$queryRaw<{ customer_name: string; status: string }[]>`
        SELECT customer_name, status FROM customers WHERE organization_id = ${orgId} AND customer_id = ${customerId}::int FOR UPDATE`;
      if (!customer) throw Errors.notFound('Customer');
      if (customer.status === 'erased') throw Errors.conflict("This customer's personal data was erased: no documents can be added");
      const held = await tx.customerDocument.findMany({
        where: { organization_id: orgId, customer_id: customerId },
        select: { id: true, kind: true, sha256: true },
      });
      const same = held.find((d) => d.sha256 === sha256);
      if (same) {
        throw Errors.conflict(`This file was already added for ${customer.customer_name} (document ${same.id}, ${DOCUMENT_KIND_LABELS[same.kind]})`);
      }
      if (held.length >= DOCUMENTS_PER_CUSTOMER_MAX) {
        throw Errors.conflict(`${customer.customer_name} already has ${DOCUMENTS_PER_CUSTOMER_MAX} documents, the most a customer can have: delete one to add another`);
      }
      const row = await tx.customerDocument.create({
        data: {
          organization_id: orgId,
          customer_id: customerId,
          kind: input.kind,
          file_name: fileName,
          content_type: type,
          size_bytes: file.buffer.length,
          sha256,
          content: new Uint8Array(file.buffer),
          note: input.note ?? null,
          uploaded_by: actor.username,
        },
        select: META,
      });
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'customer.document_added',
          entityType: 'customer',
          entityId: customerId,
          description: `${actor.username} added ${DOCUMENT_KIND_LABELS[input.kind]} (${fileName}) for customer ${customer.customer_name}`,
          metadata: { customer_id: customerId, document_id: row.id, kind: input.kind, file_name: fileName, content_type: type, size_bytes: row.size_bytes, sha256 },
        },
        tx as unknown as Prisma.TransactionClient,
      );
      return { message: `${DOCUMENT_KIND_LABELS[input.kind]} added`, data: toDocument(row) };
    });
  }

  /** The file itself, to show or download. */
  async file(orgId: string, customerId: number, documentId: number): Promise<{ content: Buffer; content_type: string; file_name: string }> {
    const row = await this.database.db.customerDocument.findFirst({
      where: { organization_id: orgId, id: documentId, customer_id: customerId },
      select: { content_type: true, file_name: true },
    });
    const content = row && (await readDocumentContent(this.database.pool, orgId, customerId, documentId));
    if (!row || !content) throw Errors.notFound('Document');
    return { ...row, content };
  }

  async remove(orgId: string, customerId: number, documentId: number, actor: AuthUser): Promise<{ message: string }> {
    return this.database.db.$transaction(async (tx) => {
      const [doc] = await tx.$queryRaw<{ kind: keyof typeof DOCUMENT_KIND_LABELS; file_name: string; size_bytes: number; sha256: string; customer_name: string }[]>`
        DELETE FROM customer_documents d USING customers c
        WHERE d.organization_id = ${orgId} AND d.document_id = ${documentId}::int AND d.customer_id = ${customerId}::int
          AND c.organization_id = d.organization_id AND c.customer_id = d.customer_id
        RETURNING d.kind::text AS kind, d.file_name, d.size_bytes, d.sha256, c.customer_name`;
      if (!doc) throw Errors.notFound('Document');
      const label = DOCUMENT_KIND_LABELS[doc.kind];
      await this.audit.record(
        {
          organizationId: orgId,
          actor,
          action: 'customer.document_deleted',
          entityType: 'customer',
          entityId: customerId,
          description: `${actor.username} deleted ${label} (${doc.file_name}) of customer ${doc.customer_name}`,
          metadata: { customer_id: customerId, document_id: documentId, kind: doc.kind, file_name: doc.file_name, size_bytes: doc.size_bytes, sha256: doc.sha256 },
        },
        tx as unknown as Prisma.TransactionClient,
      );
      return { message: `${label} deleted` };
    });
  }
}
