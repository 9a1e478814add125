import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create as openFont, type Font } from 'fontkit';
import PdfKit from 'pdfkit';

/**
 * The three styles every PDF is written in. Each is Noto Sans (Latin with
 * its extensions, so Luganda's ŋ and Chichewa's ŵ, Greek and Cyrillic),
 * with Noto Sans Ethiopic for Amharic and Tigrinya names: PDF's own
 * Helvetica knows only Western European letters and prints any other
 * with a wrong glyph.
 */
export const FONT = { regular: 'Sans', bold: 'Sans-Bold', italic: 'Sans-Italic' } as const;
export type FontStyle = (typeof FONT)[keyof typeof FONT];

interface Face {
  name: string;
  font: Font;
  /** Code points already looked up in the face's character map. */
  seen: Map<number, boolean>;
}

const FILES: Record<string, [pkg: string, path: string]> = {
  Sans: ['@expo-google-fonts/noto-sans', '400Regular/NotoSans_400Regular.ttf'],
  'Sans-Bold': ['@expo-google-fonts/noto-sans', '700Bold/NotoSans_700Bold.ttf'],
  'Sans-Italic': ['@expo-google-fonts/noto-sans', '400Regular_Italic/NotoSans_400Regular_Italic.ttf'],
  'Sans-Ethiopic': ['@expo-google-fonts/noto-sans-ethiopic', '400Regular/NotoSansEthiopic_400Regular.ttf'],
  'Sans-Bold-Ethiopic': ['@expo-google-fonts/noto-sans-ethiopic', '700Bold/NotoSansEthiopic_700Bold.ttf'],
};

/** Each style's faces, the one tried first first. Noto Sans Ethiopic has no italic. */
const FACES_OF: Record<FontStyle, string[]> = {
  Sans: ['Sans', 'Sans-Ethiopic'],
  'Sans-Bold': ['Sans-Bold', 'Sans-Bold-Ethiopic'],
  'Sans-Italic': ['Sans-Italic', 'Sans-Ethiopic'],
};

let faces: Map<string, Face> | undefined;

/**
 * The fonts, read once a process, when the first PDF is written. Every
 * document shares the read fonts (pdfkit takes a fontkit font as it takes a
 * file, and makes each document its own subset): reading Noto Sans's
 * tables for each document took about 50 ms a face.
 */
function loaded(): Map<string, Face> {
  if (faces) return faces;
  const require = createRequire(import.meta.url);
  const next = new Map<string, Face>();
  for (const [name, [pkg, path]] of Object.entries(FILES)) {
    const file = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), path));
    next.set(name, { name, font: openFont(file), seen: new Map() });
  }
  faces = next;
  return next;
}

function has(face: Face, cp: number): boolean {
  let known = face.seen.get(cp);
  if (known === undefined) {
    known = face.font.hasGlyphForCodePoint(cp);
    face.seen.set(cp, known);
  }
  return known;
}

/** Printable Latin-1: in the first face of every style, so most text is decided without a look-up. */
const LATIN_1 = /^[\u0020-\u007e\u00a0-\u00ff\n\r\t]*$/;

/**
 * The face of `style` that has every letter of `text`, or else the one that
 * has the most (a letter no face has is drawn as an empty box, never as
 * another letter).
 */
export function faceFor(text: string, style: FontStyle): string {
  const names = FACES_OF[style];
  if (LATIN_1.test(text)) return names[0];
  const all = loaded();
  let best = names[0];
  let fewest = Infinity;
  for (const name of names) {
    const face = all.get(name)!;
    let missing = 0;
    for (const ch of text) if (ch.trim() && !has(face, ch.codePointAt(0)!)) missing += 1;
    if (missing === 0) return name;
    if (missing < fewest) [best, fewest] = [name, missing];
  }
  return best;
}

type TextOptions = PDFKit.Mixins.TextOptions;
type Base = (...args: unknown[]) => unknown;

/**
 * A pdfkit document whose text is always in a face that has its letters:
 * `font()` takes a style, and each piece of text (drawn or measured) is set
 * in the style's first face that can show all of it. Every PDF the API
 * writes is one of these.
 */
export class KidogoPdf extends PdfKit {
  private style: FontStyle = FONT.regular;
  /** Inside a text call: pdfkit measures the pieces of its lines, and they stay in the face chosen for the whole. */
  private depth = 0;

  constructor(options?: PDFKit.PDFDocumentOptions) {
    super(options);
    // pdfkit's types name only files and buffers; its font factory takes an opened fontkit font too.
    for (const face of loaded().values()) this.registerFont(face.name, face.font as unknown as Buffer);
    this.font(FONT.regular);
  }

  override font(style: FontStyle, size?: number): this;
  override font(style: FontStyle, family: string, size?: number): this;
  override font(style: FontStyle, ...rest: [(number | string)?, number?]): this {
    // pdfkit's constructor sets its default font through here, before this class's fields exist.
    if (style in FACES_OF) this.style = style;
    return (PdfKit.prototype.font as Base).call(this, style, ...rest) as this;
  }

  override text(text: string | number, x?: number | TextOptions, y?: number, options?: TextOptions): this {
    return this.inFace(String(text), () => (PdfKit.prototype.text as Base).call(this, text, x, y, options)) as this;
  }

  override widthOfString(text: string, options?: TextOptions): number {
    return this.inFace(text, () => super.widthOfString(text, options));
  }

  override heightOfString(text: string, options?: TextOptions): number {
    return this.inFace(text, () => super.heightOfString(text, options));
  }

  private inFace<T>(text: string, run: () => T): T {
    if (this.depth > 0) return run();
    const face = faceFor(text, this.style);
    const other = face !== this.style;
    if (other) super.font(face);
    this.depth += 1;
    try {
      return run();
    } finally {
      this.depth -= 1;
      if (other) super.font(this.style);
    }
  }
}
