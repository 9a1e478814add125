/** The part of fontkit (pdfkit's own font reader) that the PDFs use to pick a face that has a text's letters. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
