import { SUPPORT_SCREENSHOT_MAX_BYTES, supportScreenshotTypes, type SupportScreenshotType } from '@pathwell/contracts/messaging';
import type { SignedInContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { sniffImageType } from '../../lib/image-type';
import { queueMessage, type OutboxAttachmentInput } from '../outbox/outbox.service';

const extensionOf: Record<SupportScreenshotType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

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

/** A file name safe to show and to put in a mail header: no control characters or folders. */
function cleanFileName(name: string | undefined, type: SupportScreenshotType): string {
  const cleaned = (name ?? '')
    .replace(/[\p{Cc}\p{Cf}/\\]/gu, '')
    .trim()
    .slice(0, 200);
  return cleaned || `screenshot.${extensionOf[type]}`;
}

/**
 * The screenshot of a support request, from its data URL (the schema has checked the shape and the
 * length): the bytes must be one of the accepted images, as their magic numbers say, and the type the
 * URL claims; at most SUPPORT_SCREENSHOT_MAX_BYTES once decoded.
 */
export function decodeScreenshot(dataUrl: string, name: string | undefined): OutboxAttachmentInput {
  const match = /^data:(image\/[a-z]+);base64,/.exec(dataUrl);
  const declared = match?.[1] as SupportScreenshotType | undefined;
  if (!match || !declared || !supportScreenshotTypes.includes(declared)) throw typeRefused();
  const content = Buffer.from(dataUrl.slice(match[0].length), 'base64');
  if (content.length === 0) throw new AppError('VALIDATION', 'fileEmpty', { fields: { screenshot: 'fileRequired' } });
  if (content.length > SUPPORT_SCREENSHOT_MAX_BYTES) throw tooLarge();
  if (sniffImageType(content) !== declared) throw typeRefused();
  return { fileName: cleanFileName(name, declared), contentType: declared, content };
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
  const screenshot = input.screenshot ? decodeScreenshot(input.screenshot, input.screenshotName) : null;
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
