import { FONT, type KidogoPdf } from './pdf-document.js';

type Doc = KidogoPdf;

export interface PdfColumn {
  label: string;
  align?: 'left' | 'right';
  /** Share of the page width against the other columns' (1 when absent). */
  weight?: number;
}

const ROW_HEIGHT = 16;

/**
 * Pages numbered at the foot, and tables on them that carry their header
 * row over to the next page: what the report PDFs and the customer
 * statement draw with. Pages are written out as they fill.
 */
export class PdfPages {
  readonly left: number;
  readonly width: number;
  private page = 1;

  constructor(readonly doc: Doc) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - this.left - doc.page.margins.right;
  }

  /** Where the next line goes; tables move it as they draw. */
  y = 0;

  private footer() {
    const { doc } = this;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(FONT.regular).fontSize(8).fillColor('#666666')
      .text(`Page ${this.page}`, this.left, doc.page.height - 28, { width: this.width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
    doc.fillColor('#000000');
  }

  /** True when `height` more fits above the bottom margin. */
  fits(height: number): boolean {
    return this.y + height <= this.doc.page.height - this.doc.page.margins.bottom - 10;
  }

  newPage() {
    this.footer();
    this.doc.addPage();
    this.page += 1;
    this.y = this.doc.page.margins.top;
  }

  /** A section's title, on a new page when it and a few rows would not fit. */
  heading(text: string) {
    if (!this.fits(ROW_HEIGHT * 4)) this.newPage();
    this.doc.font(FONT.bold).fontSize(12).fillColor('#000000').text(text, this.left, this.y, { lineBreak: false });
    this.y += 20;
  }

  /** A line of small grey text (a note under a table). */
  note(text: string) {
    if (!this.fits(ROW_HEIGHT)) this.newPage();
    this.doc.font(FONT.italic).fontSize(9).fillColor('#444444').text(text, this.left + 3, this.y + 4, { width: this.width - 6 });
    this.doc.fillColor('#000000');
    this.y = this.doc.y + 4;
  }

  table(cols: PdfColumn[]): PdfTable {
    return new PdfTable(this, cols);
  }

  /** A titled table of `rows`, or of the line `none` when there are none; the table, for a totals row. */
  section(title: string, cols: PdfColumn[], rows: string[][], none: string): PdfTable {
    this.heading(title);
    const table = this.table(cols);
    table.header();
    if (!rows.length) table.empty(none);
    for (const row of rows) table.row(row);
    return table;
  }

  /** The last page's number; call once, after the last table. */
  finish() {
    this.footer();
  }
}

export class PdfTable {
  private readonly widths: number[];

  constructor(
    private readonly pages: PdfPages,
    private readonly cols: PdfColumn[],
  ) {
    const weights = cols.map((c) => c.weight ?? 1);
    const unit = pages.width / weights.reduce((a, b) => a + b, 0);
    this.widths = weights.map((w) => w * unit);
  }

  private draw(cells: string[], bold: boolean) {
    const { doc } = this.pages;
    let x = this.pages.left;
    doc.font(bold ? FONT.bold : FONT.regular).fontSize(9);
    cells.forEach((text, i) => {
      doc.text(text, x + 3, this.pages.y + 4, {
        width: this.widths[i] - 6,
        height: ROW_HEIGHT - 4,
        align: this.cols[i].align ?? 'left',
        lineBreak: false,
        ellipsis: true,
      });
      x += this.widths[i];
    });
    this.pages.y += ROW_HEIGHT;
  }

  header() {
    const { doc, left, width } = this.pages;
    doc.rect(left, this.pages.y, width, ROW_HEIGHT).fill('#e8eef5');
    doc.fillColor('#000000');
    this.draw(this.cols.map((c) => c.label), true);
    doc.moveTo(left, this.pages.y).lineTo(left + width, this.pages.y).strokeColor('#999999').lineWidth(0.5).stroke();
  }

  /** A row; on a new page (under the header again) when it would not fit. */
  row(cells: string[], bold = false) {
    this.room();
    this.draw(cells, bold);
  }

  /** A line of italic text across the table (nothing to list). */
  empty(text: string) {
    this.room();
    this.pages.doc.font(FONT.italic).fontSize(9).text(text, this.pages.left + 3, this.pages.y + 4, { lineBreak: false });
    this.pages.y += ROW_HEIGHT;
  }

  /** The totals row, under a rule. */
  total(cells: string[]) {
    this.room();
    const { doc, left, width } = this.pages;
    doc.moveTo(left, this.pages.y).lineTo(left + width, this.pages.y).strokeColor('#333333').lineWidth(0.8).stroke();
    this.draw(cells, true);
  }

  private room() {
    if (this.pages.fits(ROW_HEIGHT)) return;
    this.pages.newPage();
    this.header();
  }
}
