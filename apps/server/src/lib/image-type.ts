import sharp from 'sharp';

/** The photo and screenshot types uploads accept (insurance cards, support screenshots). */
type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The usual file extension of each type, for a stored file's name. */
const imageExtension: Record<ImageType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** The image type the bytes themselves announce (magic numbers), whatever the header claims. */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

const decodedFormat: Record<string, ImageType> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/**
 * Larger than any phone photo or screen an upload comes from (a 2 MB upload limit allows far larger
 * images in a well-compressed PNG), small enough that decoding one stays within a few hundred megabytes.
 */
const MAX_PIXELS = 50_000_000;

/**
 * An uploaded photo or screenshot decoded and encoded again (decision 0057): what is stored is only the
 * picture. The EXIF orientation is applied first, so the picture stands the way the camera meant; then every
 * piece of metadata is left out (sharp keeps none unless asked): EXIF with the GPS position, XMP, IPTC,
 * comments, the ICC profile (the pixels are converted to sRGB). Answers null when the bytes are not a
 * whole image of the type their first bytes announce, whatever those bytes say.
 */
export async function reencodeImage(bytes: Buffer): Promise<{ type: ImageType; content: Buffer } | null> {
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return null;
  try {
    // failOn 'warning' (the default, said here because it is the point): a truncated or corrupt image is refused.
    const image = sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_PIXELS, animated: false });
    const { format } = await image.metadata();
    if (!format || decodedFormat[format] !== sniffed) return null;
    const rotated = image.rotate();
    const encoded =
      sniffed === 'image/jpeg'
        ? rotated.jpeg({ quality: 90 })
        : sniffed === 'image/png'
          ? rotated.png({ compressionLevel: 9 })
          : rotated.webp({ quality: 90 });
    return { type: sniffed, content: await encoded.toBuffer() };
  } catch {
    return null;
  }
}

/** Extensions a stored image may keep; any other is replaced by its type's own. */
const keptExtensions: Record<ImageType, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
};

/**
 * A stored image's name takes the extension of the type its bytes are (decision 0057), so a PNG uploaded
 * as "notes.html" is kept as "notes.png"; a name already ending in a matching extension keeps it.
 * `name` is already cleaned of folders and control characters; `fallback` names a file without a base.
 */
export function withImageExtension(name: string, type: ImageType, fallback: string): string {
  const dot = name.lastIndexOf('.');
  const base = (dot >= 0 ? name.slice(0, dot) : name).trim() || fallback;
  const extension = dot >= 0 ? name.slice(dot + 1) : '';
  return `${base}.${keptExtensions[type].includes(extension.toLowerCase()) ? extension : imageExtension[type]}`;
}

/**
 * A picture sent as a data URL (profile pictures) re-encoded like an uploaded file: answers the data URL of
 * the clean picture, or null when the bytes are not a whole image of the type the URL claims.
 */
export async function reencodeImageDataUrl(dataUrl: string): Promise<string | null> {
  const match = /^data:(image\/[a-z]+);base64,/.exec(dataUrl);
  if (!match) return null;
  const image = await reencodeImage(Buffer.from(dataUrl.slice(match[0].length), 'base64'));
  if (!image || image.type !== match[1]) return null;
  return `data:${image.type};base64,${image.content.toString('base64')}`;
}
