import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { FONT, KidogoPdf, faceFor } from '../src/common/pdf-document.js';
import { PdfPages } from '../src/common/pdf-table.js';
import { pdfText } from './support/pdf.js';

// Every PDF (statements, agreements, reports, invoices) is written with
// KidogoPdf: text in a face that has its letters, whatever the script.

async function written(draw: (doc: KidogoPdf) => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const doc = new KidogoPdf({ size: 'A4', margin: 40 });
  const done = new Promise((resolve) =>
    doc.pipe(new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(c), cb()) })).on('finish', resolve),
  );
  draw(doc);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

describe('the PDFs’ fonts', () => {
  it('set each text in the first face of its style that has all its letters', () => {
    expect(faceFor('Wanjiru Kamau, KES 1,500 · café', FONT.regular)).toBe('Sans');
    // Luganda's ŋ, Chichewa's ŵ, Cyrillic and Greek: all in Noto Sans.
    expect(faceFor('Nakato Ŋŋanda', FONT.regular)).toBe('Sans');
    expect(faceFor('Ŵiza Banda', FONT.bold)).toBe('Sans-Bold');
    expect(faceFor('Жанна Ωmega', FONT.italic)).toBe('Sans-Italic');
    // Amharic and Tigrinya: Noto Sans Ethiopic, which has Latin too; it has no italic.
    expect(faceFor('Abebe Bekele አበበ በቀለ', FONT.regular)).toBe('Sans-Ethiopic');
    expect(faceFor('ትዕግሥት', FONT.bold)).toBe('Sans-Bold-Ethiopic');
    expect(faceFor('ሀ', FONT.italic)).toBe('Sans-Ethiopic');
    // Letters no face has: the face with the most of the rest.
    expect(faceFor('Ali علي', FONT.regular)).toBe('Sans');
    expect(faceFor('አበበ ✓', FONT.regular)).toBe('Sans-Ethiopic');
  });

  it('print names in the scripts of East Africa as they are, in tables and running text, with embedded fonts only', async () => {
    const names = ['Nakato Ŋŋanda', 'Ŵiza Banda', 'Abebe Bekele አበበ በቀለ', 'Жанна Петрова', 'Wanjiru Kamau'];
    const pdf = await written((doc) => {
      const pages = new PdfPages(doc);
      doc.font(FONT.bold).fontSize(18).text('Statement: ትዕግሥት ኃይሌ', pages.left, 40);
      doc.font(FONT.bold).fontSize(10).text('Customer. ', { continued: true }).font(FONT.regular).text('Chikondi Ŵ. Phiri, of Mzuzu.');
      pages.y = doc.y + 10;
      const table = pages.table([{ label: 'Name', weight: 2 }, { label: 'Amount', align: 'right' }]);
      table.header();
      names.forEach((name, i) => table.row([name, `KES ${(i + 1) * 100}`]));
      table.row(['ተስፋዬ ገብረ መድኅን '.repeat(12), 'KES 0']);
      pages.note('Paid by M-PESA · ሀ');
      pages.finish();
    });
    const raw = pdf.toString('latin1');
    expect(raw).toContain('NotoSans-Regular');
    expect(raw).toContain('NotoSansEthiopic-Bold');
    expect(raw).not.toContain('Helvetica');
    const text = pdfText(pdf);
    if (text === null) return;
    expect(text).toContain('Statement: ትዕግሥት ኃይሌ');
    expect(text).toContain('Customer. Chikondi Ŵ. Phiri, of Mzuzu.');
    for (const name of names) expect(text).toContain(name);
    // A cell too long for its column ends in an ellipsis, in the same face.
    expect(text).toMatch(/ተስፋዬ ገብረ መድኅን ተስፋዬ[^\n]*…\s+KES 0/);
    expect(text).toContain('Paid by M-PESA · ሀ');
  });
});
