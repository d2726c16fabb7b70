const PROFILE_IMAGE_MAX_SIDE = 256;

function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('The file is not a picture this browser can read'));
    };
    image.src = url;
  });
}

/**
 * Shrinks a picture so that its longer side is at most `maxSide` pixels and returns it as a data URL:
 * profile images travel inside the JSON body and the contract caps their size.
 */
export async function resizeImageToDataUrl(file: Blob, maxSide = PROFILE_IMAGE_MAX_SIDE): Promise<string> {
  const image = await loadImage(file);
  const scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight));
  const width = Math.max(1, Math.round(image.naturalWidth * scale));
  const height = Math.max(1, Math.round(image.naturalHeight * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Canvas is not available');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  // WebP keeps transparency and is small; browsers without a WebP encoder return PNG, so fall back to JPEG.
  const webp = canvas.toDataURL('image/webp', 0.85);
  return webp.startsWith('data:image/webp') ? webp : canvas.toDataURL('image/jpeg', 0.85);
}
