/**
 * The serial numbers in what staff pasted, typed, scanned or loaded from a
 * file: one per line (a barcode scanner types each one and Enter), or
 * separated by commas, semicolons, tabs or spaces. A CSV file with a header
 * naming a serial number column (Products' export, a maker's list) gives that
 * column only, quotes removed. Blank entries are dropped; repeats are kept
 * (the stock take says how many were counted twice).
 */
export function serialsFromText(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '');
  const column = header.findIndex((h) => /^serial([\s_-]*(number|no\.?))?$/i.test(h.trim()));
  if (column >= 0) {
    return lines
      .slice(1)
      .map((l) => (splitCsvLine(l)[column] ?? '').trim())
      .filter((s) => s !== '');
  }
  return text
    .split(/[\s,;]+/)
    .map((s) => s.replace(/^"+|"+$/g, '').trim())
    .filter((s) => s !== '');
}

/** One CSV line's cells: commas inside double quotes stay, "" is a quote. */
function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
