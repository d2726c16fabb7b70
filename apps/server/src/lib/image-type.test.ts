import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { reencodeImage, sniffImageType } from './image-type';

/** A 40 × 20 photo as a phone writes it: sideways pixels with EXIF orientation 6 (rotate 90°), the camera and the GPS position. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#c03030' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PathwellTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe('reencodeImage', () => {
  it('stores a JPEG without its EXIF and GPS position, turned the way the camera meant', async () => {
    const photo = await phonePhoto();
    const before = await sharp(photo).metadata();
    expect(before.exif?.toString('latin1')).toContain('PathwellTestCam');
    expect(before.exif?.toString('latin1')).toMatch(/GPS|\x88\x25|\x25\x88/);
    expect(before.orientation).toBe(6);

    const cleaned = await reencodeImage(photo);
    expect(cleaned?.type).toBe('image/jpeg');
    const content = cleaned!.content;
    expect(sniffImageType(content)).toBe('image/jpeg');
    const after = await sharp(content).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // The rotation is in the pixels now: 20 wide, 40 high.
    expect([after.width, after.height]).toEqual([20, 40]);
    // No APP1 (EXIF/XMP) segment, and neither the camera nor a GPS tag anywhere in the bytes.
    expect(content.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
    expect(content.includes(Buffer.from('PathwellTestCam'))).toBe(false);
    expect(content.includes(Buffer.from('http://ns.adobe.com/xap'))).toBe(false);
  });

  it('strips PNG and WebP metadata too', async () => {
    const base = sharp({ create: { width: 8, height: 8, channels: 4, background: '#3366cc' } }).withExif({
      IFD0: { Make: 'PathwellTestCam' },
    });
    for (const input of [await base.clone().png().toBuffer(), await base.clone().webp().toBuffer()]) {
      expect(input.includes(Buffer.from('PathwellTestCam'))).toBe(true);
      const cleaned = await reencodeImage(input);
      expect(cleaned?.type).toBe(sniffImageType(input));
      expect((await sharp(cleaned!.content).metadata()).exif).toBeUndefined();
      expect(cleaned!.content.includes(Buffer.from('PathwellTestCam'))).toBe(false);
    }
  });

  it('refuses bytes that start like an image but do not decode as one', async () => {
    const photo = await phonePhoto();
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>')]);
    expect(sniffImageType(garbage)).toBe('image/jpeg');
    expect(await reencodeImage(garbage)).toBeNull();
    expect(await reencodeImage(photo.subarray(0, Math.floor(photo.length / 2)))).toBeNull();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), photo]);
    expect(await reencodeImage(png)).toBeNull();
    expect(await reencodeImage(Buffer.from('<html></html>'))).toBeNull();
  });
});
