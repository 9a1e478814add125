import { describe, expect, it } from '@jest/globals';
import { copiedField } from '../src/customer-documents/document-content.js';

// A document's file is read with COPY (FORMAT binary); this is what is taken out of the stream.
const header = (extension = Buffer.alloc(0)) => {
  const h = Buffer.alloc(19);
  Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1').copy(h);
  h.writeUInt32BE(extension.length, 15);
  return Buffer.concat([h, extension]);
};
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const TRAILER = int16(-1);

describe('a document file read with COPY (FORMAT binary)', () => {
  it('is the one field of the row, its bytes as they are', () => {
    const file = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x0a, 0x0d, 0xff, 0xd9]);
    expect(copiedField(Buffer.concat([header(), int16(1), int32(file.length), file, TRAILER]))).toEqual(file);
    // A header extension is skipped, whatever it holds.
    expect(copiedField(Buffer.concat([header(Buffer.from('ext!')), int16(1), int32(file.length), file, TRAILER]))).toEqual(file);
  });

  it('is null with no row (no such document) or a NULL, and a stream cut short is not taken for a file', () => {
    expect(copiedField(Buffer.concat([header(), TRAILER]))).toBeNull();
    expect(copiedField(Buffer.concat([header(), int16(1), int32(-1), TRAILER]))).toBeNull();
    expect(copiedField(Buffer.concat([header(), int16(1), int32(100), Buffer.alloc(10)]))).toBeNull();
    expect(() => copiedField(Buffer.from('id,content\n1,abc\n'))).toThrow('not a COPY binary stream');
  });
});
