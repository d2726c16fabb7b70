import { SUPPORT_SCREENSHOT_MAX_BYTES, supportScreenshotTypes, type SupportScreenshotType } from '@pathwell/contracts/messaging';
import type { SignedInContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { reencodeImage, withImageExtension } from '../../lib/image-type';
import { queueMessage, type OutboxAttachmentInput } from '../outbox/outbox.service';

const typeRefused = () =>
  new AppError('VALIDATION', 'fileTypesAccepted', {
    params: { types: 'PNG, JPEG, WebP' },
    fields: { screenshot: 'fileTypeInvalid' },
  });
const tooLarge = () =>
  new AppError('VALIDATION', 'fileLargerThan', {
    params: { megabytes: SUPPORT_SCREENSHOT_MAX_BYTES / 1024 / 1024 },
    fields: { screenshot: 'fileTooLarge' },
  });

/** A file name safe to show and to put in a mail header: no control characters or folders, the type's extension. */
function cleanFileName(name: string | undefined, type: SupportScreenshotType): string {
  const cleaned = (name ?? '')
    .replace(/[\p{Cc}\p{Cf}/\\]/gu, '')
    .trim()
    .slice(0, 200);
  return withImageExtension(cleaned, type, 'screenshot');
}

/**
 * The screenshot of a support request, from its data URL (the schema has checked the shape and the
 * length): at most SUPPORT_SCREENSHOT_MAX_BYTES once decoded, and an image of the type the URL claims
 * when decoded, not only by its first bytes. What is kept is the image encoded again, without metadata.
 */
async function decodeScreenshot(dataUrl: string, name: string | undefined): Promise<OutboxAttachmentInput> {
  const match = /^data:(image\/[a-z]+);base64,/.exec(dataUrl);
  const declared = match?.[1] as SupportScreenshotType | undefined;
  if (!match || !declared || !supportScreenshotTypes.includes(declared)) throw typeRefused();
  const content = Buffer.from(dataUrl.slice(match[0].length), 'base64');
  if (content.length === 0) throw new AppError('VALIDATION', 'fileEmpty', { fields: { screenshot: 'fileRequired' } });
  if (content.length > SUPPORT_SCREENSHOT_MAX_BYTES) throw tooLarge();
  const image = await reencodeImage(content);
  if (!image || image.type !== declared) throw typeRefused();
  return { fileName: cleanFileName(name, image.type), contentType: image.type, content: image.content };
}

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * A support request from the signed-in user: by email to SUPPORT_EMAIL, with the screenshot attached;
 * without that address it stays in the outbox ('stored'), screenshot included, for the System Manager.
 */
export async function sendSupportRequest(
  ctx: SignedInContext,
  input: { subject: string; message: string; screenshot?: string; screenshotName?: string },
  page: string | undefined,
) {
  const screenshot = input.screenshot ? await decodeScreenshot(input.screenshot, input.screenshotName) : null;
  const body = [
    `From: ${ctx.actor.email} (${ctx.actor.role})`,
    `Clinic: ${ctx.instanceId}`,
    `Page: ${page ?? '—'}`,
    ...(screenshot ? [`Screenshot: ${screenshot.fileName} (${kilobytes(screenshot.content.length)}, attached)`] : []),
    '',
    input.message,
  ].join('\n');
  return queueMessage(ctx, ctx.db, {
    instanceId: ctx.instanceId,
    channel: 'email',
    to: ctx.config.supportEmail ?? 'support (SUPPORT_EMAIL not set)',
    storeOnly: !ctx.config.supportEmail,
    subject: `[Pathwell support] ${input.subject}`,
    body,
    template: 'support-request',
    ...(screenshot ? { attachments: [screenshot] } : {}),
  });
}
