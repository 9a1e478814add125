import type pg from 'pg';
import copyStreams from 'pg-copy-streams';

/** The start of every COPY ... (FORMAT binary) stream. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The one field of the first row of a COPY ... (FORMAT binary) stream, or
 * null when it has no row or the field is NULL.
 */
export function copiedField(data: Buffer): Buffer | null {
  if (data.length < 21 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a COPY binary stream');
  let at = 19 + data.readUInt32BE(15); // flags, then the header extension's length and the extension
  if (data.readInt16BE(at) === -1) return null; // the trailer: no row
  at += 2;
  const length = data.readInt32BE(at);
  at += 4;
  if (length < 0 || at + length > data.length) return null;
  return data.subarray(at, at + length);
}

/**
 * A document's file, read with COPY (FORMAT binary): 10 MB in about 0.1 s,
 * where a query's bytea took 0.35–0.8 s (pg receives it as hex text, twice
 * the size, and decodes it). The whole file is read before it is sent, so a
 * slow client never holds a database connection. Null when the customer of
 * this organization has no such document (or it was deleted a moment ago).
 */
export async function readDocumentContent(pool: pg.Pool, orgId: string, customerId: number, documentId: number): Promise<Buffer | null> {
  if (!Number.isSafeInteger(customerId) || !Number.isSafeInteger(documentId)) throw new RangeError('ids must be integers');
  const client = await pool.connect();
  let failed: unknown;
  try {
    // COPY takes no parameters: the ids are integers and the organization a quoted literal.
    const sql =
      `COPY (SELECT content FROM customer_documents WHERE organization_id = ${client.escapeLiteral(orgId)} ` +
      `AND customer_id = ${customerId} AND document_id = ${documentId}) TO STDOUT (FORMAT binary)`;
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(copyStreams.to(sql))) chunks.push(chunk as Buffer);
    return copiedField(Buffer.concat(chunks));
  } catch (e) {
    failed = e;
    throw e;
  } finally {
    // A connection whose COPY broke off is not handed to the next request.
    client.release(failed instanceof Error ? failed : undefined);
  }
}
