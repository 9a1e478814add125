import { z } from 'zod';
import { zOptionalText, zQueryBool } from './fields.js';

/**
 * A customer's documents: what a lender keeps to know who it gave a device on
 * credit to (a photo of the ID card, front and back, of the customer, of the
 * installed system or the home, the signed agreement). Stored with the
 * customer in PostgreSQL, so every API process serves them, backups hold them
 * and erasing the customer's personal data removes them.
 */
export const DOCUMENT_KINDS = ['id_front', 'id_back', 'photo', 'installation', 'agreement', 'other'] as const;
export const ZDocumentKindSchema = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof ZDocumentKindSchema>;

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  id_front: 'ID card (front)',
  id_back: 'ID card (back)',
  photo: 'Photo of the customer',
  installation: 'Installation or home',
  agreement: 'Signed agreement',
  other: 'Other',
};

/**
 * What makes a customer's file complete: both sides of the ID card and the
 * signed agreement (the Documents report's Complete, the card's "File complete").
 */
export const REQUIRED_DOCUMENT_KINDS = ['id_front', 'id_back', 'agreement'] as const satisfies readonly DocumentKind[];

/** The required kinds a customer's documents lack, in the order of REQUIRED_DOCUMENT_KINDS. */
export const missingDocumentKinds = (held: readonly { kind: DocumentKind }[]): DocumentKind[] =>
  REQUIRED_DOCUMENT_KINDS.filter((k) => !held.some((d) => d.kind === k));

/** What a document may be, told apart by its first bytes (not by its name or the browser's word for it). */
export const DOCUMENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type DocumentContentType = (typeof DOCUMENT_TYPES)[number];

/** The largest file taken, 10 MB: a phone camera's photo; the web app shrinks photos before sending them. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The most documents one customer can have; delete one to add another. */
export const DOCUMENTS_PER_CUSTOMER_MAX = 30;
export const DOCUMENT_NOTE_MAX = 200;
/** The multipart field the file comes in. */
export const DOCUMENT_FILE_FIELD = 'file';

/** The text fields of POST /customers/{id}/documents (multipart/form-data, beside the file). */
export const ZDocumentUploadSchema = z
  .object({
    kind: ZDocumentKindSchema,
    note: zOptionalText(DOCUMENT_NOTE_MAX),
  })
  .strict();
export type DocumentUploadInput = z.infer<typeof ZDocumentUploadSchema>;

export const ZCustomerDocumentSchema = z.object({
  document_id: z.number().int(),
  customer_id: z.number().int(),
  kind: ZDocumentKindSchema,
  /** The name the file had on the uploader's machine, for the download. */
  file_name: z.string(),
  content_type: z.enum(DOCUMENT_TYPES),
  size_bytes: z.number().int(),
  /** SHA-256 of the file, hex: the same file uploaded twice for one customer is refused. */
  sha256: z.string(),
  note: z.string().nullable(),
  uploaded_by: z.string().nullable(),
  uploaded_at: z.string(),
});
export type CustomerDocument = z.infer<typeof ZCustomerDocumentSchema>;

export const ZCustomerDocumentsReplySchema = z.object({
  /** Newest first. */
  data: z.array(ZCustomerDocumentSchema),
  /** How many more the customer can have (DOCUMENTS_PER_CUSTOMER_MAX in all). */
  remaining: z.number().int(),
});
export type CustomerDocumentsReply = z.infer<typeof ZCustomerDocumentsReplySchema>;

export const ZCustomerDocumentReplySchema = z.object({ message: z.string(), data: ZCustomerDocumentSchema });
export type CustomerDocumentReply = z.infer<typeof ZCustomerDocumentReplySchema>;

/** GET /customers/{id}/documents/{document_id}/file?download=true: as an attachment rather than to show. */
export const ZDocumentFileQuerySchema = z
  .object({
    download: zQueryBool,
  })
  .strict();

/** A size as people read it: "2.4 MB", "380 KB". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(Math.round((n / (1024 * 1024)) * 10) / 10).toString()} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
