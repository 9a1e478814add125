/** Photos larger than this are made smaller before they are sent. */
export const SHRINK_ABOVE_BYTES = 1024 * 1024;
/** The longest side of a photo made smaller: an ID card's small print still reads at this size. */
export const PHOTO_MAX_EDGE = 2000;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/**
 * A phone camera's photo (4–8 MB, 4000 pixels wide) as a JPEG of at most
 * PHOTO_MAX_EDGE pixels a side (a few hundred KB), turned upright as the
 * camera recorded it. A small photo, a PDF, a browser that cannot draw the
 * image, or a result no smaller than the original: the file as it was.
 */
export async function shrinkPhoto(file: File): Promise<File> {
  if (!PHOTO_TYPES.includes(file.type) || file.size <= SHRINK_ABOVE_BYTES) return file;
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return file;
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const scale = Math.min(1, PHOTO_MAX_EDGE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    // A transparent PNG becomes a JPEG on white, not on black.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (!blob || blob.size >= file.size) return file;
    const name = `${file.name.replace(/\.[^.]+$/, '') || 'photo'}.jpg`;
    return new File([blob], name, { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  }
}
