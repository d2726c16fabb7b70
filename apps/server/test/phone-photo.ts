import sharp from 'sharp';

/** A picture as a phone writes it: a JPEG whose EXIF names the camera and the GPS position where it was taken. */
export function phonePhoto(width = 16, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c03030' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PathwellTestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '30/1 16/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '97/1 44/1 0/1' },
    })
    .toBuffer();
}

/** Whether stored image bytes still carry EXIF (the camera or any EXIF segment). */
export async function hasExif(bytes: Buffer): Promise<boolean> {
  return (
    (await sharp(bytes).metadata()).exif !== undefined ||
    bytes.includes(Buffer.from('Exif\0\0', 'latin1')) ||
    bytes.includes(Buffer.from('PathwellTestCam'))
  );
}

/** An HTML page behind a JPEG's first bytes: sniffing says JPEG, decoding says otherwise. */
export const FAKE_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('<html><script>alert(1)</script></html>'),
]);

export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
