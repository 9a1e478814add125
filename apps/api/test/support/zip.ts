import yauzl from 'yauzl';

export interface ZipEntry {
  data: Buffer;
  /** 0 stored, 8 deflated. */
  method: number;
}

/** A ZIP's entries by name, read with yauzl (an unzip written apart from ours), which checks each one's CRC-32 and sizes. */
export function unzip(zip: Buffer): Promise<Map<string, ZipEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('no zip'));
      const entries = new Map<string, ZipEntry>();
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, { data: Buffer.concat(chunks), method: entry.compressionMethod });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
