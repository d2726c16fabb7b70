import { and, eq } from 'drizzle-orm';
import {
  fileKeys,
  fileKindOf,
  fileRules,
  isFileKey,
  PRIVATE_KEY_FILE,
  type FileKey,
  type InstanceFile,
} from '@pathwell/contracts/instance-settings';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import type { MessageKey, MessageParams } from '@pathwell/contracts/server-messages';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { instanceFiles } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { reencodeImage, withImageExtension } from '../../lib/image-type';
import { sha256 } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { detectContentType, isPrivateKey, isSafeSvg } from './file-checks';
import { encryptFile } from '../../lib/settings-crypto';

export interface UploadedFile {
  fileName: string;
  declaredType: string;
  content: Buffer;
}

interface FileMeta {
  instanceId: string;
  fileKey: string;
  fileName: string;
  contentType: string;
  size: number;
  uploadedAt: Date;
}

const metaColumns = {
  instanceId: instanceFiles.instanceId,
  fileKey: instanceFiles.fileKey,
  fileName: instanceFiles.fileName,
  contentType: instanceFiles.contentType,
  size: instanceFiles.size,
  uploadedAt: instanceFiles.uploadedAt,
};

const fileError = (
  status: 'VALIDATION' | 'UNSUPPORTED_MEDIA_TYPE',
  key: ValidationMessageKey,
  messageKey: MessageKey = key,
  params?: MessageParams,
) => new AppError(status, messageKey, { fields: { file: key }, params });

/** A strong validator that changes whenever the file is replaced; read without loading the content. */
const etagOf = (meta: FileMeta) =>
  `"${sha256(`${meta.instanceId}:${meta.fileKey}:${meta.uploadedAt.toISOString()}:${meta.size}`).slice(0, 24)}"`;

/** Logos carry their version in the URL, so that the browser may cache them for a year. */
const logoUrl = (meta: FileMeta) =>
  `/api/instancesettings/logos/${meta.instanceId}/${meta.fileKey}?v=${etagOf(meta).replaceAll('"', '')}`;

function urlOf(meta: FileMeta): string | null {
  if (!isFileKey(meta.fileKey)) return null;
  switch (fileKindOf(meta.fileKey)) {
    case 'logo':
      return logoUrl(meta);
    case 'agreement':
      return `/api/instancesettings/files/${meta.fileKey}`;
    case 'privateKey':
      return null;
  }
}

const toView = (meta: FileMeta): InstanceFile => ({
  fileName: meta.fileName,
  contentType: meta.contentType,
  size: meta.size,
  uploadedAt: meta.uploadedAt.toISOString(),
  url: urlOf(meta),
});

async function findMeta(db: Database, instanceId: string, key: string): Promise<FileMeta | undefined> {
  const [meta] = await db
    .select(metaColumns)
    .from(instanceFiles)
    .where(and(eq(instanceFiles.instanceId, instanceId), eq(instanceFiles.fileKey, key)));
  return meta;
}

export async function listFiles(db: Database, instanceId: string): Promise<Record<FileKey, InstanceFile | null>> {
  const rows = await db.select(metaColumns).from(instanceFiles).where(eq(instanceFiles.instanceId, instanceId));
  const byKey = new Map(rows.map((row) => [row.fileKey, row]));
  return Object.fromEntries(
    fileKeys.map((key) => {
      const meta = byKey.get(key);
      return [key, meta ? toView(meta) : null];
    }),
  ) as Record<FileKey, InstanceFile | null>;
}

/** The top bar's logo: public and cacheable, null when the clinic has none. */
export async function primaryLogoUrl(db: Database, instanceId: string): Promise<string | null> {
  const meta = await findMeta(db, instanceId, 'clinicLogoPrimary');
  return meta ? logoUrl(meta) : null;
}

/** Keeps the last path segment, without control characters or quotes, at most 200 characters. */
function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f).join('');
  const cleaned = printable
    .replace(/["<>|*?:]/g, '')
    .trim()
    .slice(-200);
  return cleaned || fallback;
}

async function storeFile(
  ctx: SignedInContext,
  key: FileKey,
  values: { fileName: string; contentType: string; size: number; content: Buffer },
): Promise<InstanceFile> {
  const meta = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(instanceFiles)
      .values({ instanceId: ctx.instanceId, fileKey: key, ...values, uploadedAt: new Date() })
      .onConflictDoUpdate({
        target: [instanceFiles.instanceId, instanceFiles.fileKey],
        set: { ...values, uploadedAt: new Date() },
      })
      .returning(metaColumns);
    await recordActivity(
      tx,
      staffActivity(ctx, 'Admin Configuration', 'Updated', {
        type: 'InstanceFile',
        id: key,
        description: `Instance file uploaded: ${key} (${values.fileName}, ${values.size} bytes)`,
      }),
    );
    return row!;
  });
  return toView(meta);
}

async function removeFile(ctx: SignedInContext, key: FileKey): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(instanceFiles)
      .where(and(eq(instanceFiles.instanceId, ctx.instanceId), eq(instanceFiles.fileKey, key)))
      .returning({ fileName: instanceFiles.fileName });
    if (!removed) throw notFound('fileNotFound');
    await recordActivity(
      tx,
      staffActivity(ctx, 'Admin Configuration', 'Deleted', {
        type: 'InstanceFile',
        id: key,
        description: `Instance file deleted: ${key} (${removed.fileName})`,
      }),
    );
  });
}

function uploadableKey(key: string): FileKey {
  if (!isFileKey(key) || fileKindOf(key) === 'privateKey') throw notFound('fileSlotNotFound');
  return key;
}

/** Logos (PNG, JPEG, script-free SVG, ≤ 2 MB) and new-patient agreements (PDF, ≤ 10 MB). */
export async function uploadFile(ctx: SignedInContext, key: string, file: UploadedFile): Promise<InstanceFile> {
  const fileKey = uploadableKey(key);
  const rules = fileRules[fileKindOf(fileKey)];
  if (file.content.length === 0) throw fileError('VALIDATION', 'fileRequired', 'fileEmpty');
  if (file.content.length > rules.maxBytes) throw fileError('VALIDATION', 'fileTooLarge');
  const declared = file.declaredType.split(';')[0]!.trim().toLowerCase();
  const detected = detectContentType(file.content);
  if (!detected || !rules.contentTypes.includes(detected) || (declared !== detected && declared !== 'application/octet-stream')) {
    throw fileError('UNSUPPORTED_MEDIA_TYPE', 'fileTypeInvalid', 'fileTypesAccepted', {
      types: rules.contentTypes.join(', '),
    });
  }
  if (detected === 'image/svg+xml' && !isSafeSvg(file.content)) {
    throw fileError('VALIDATION', 'fileUnsafe');
  }
  const fileName = cleanFileName(file.fileName, fileKey);
  if (detected === 'image/png' || detected === 'image/jpeg') {
    // A raster logo is kept as patient photos are (decision 0057): decoded, re-encoded without its EXIF
    // (GPS position included) or other metadata, and named with the extension of what it is.
    const image = await reencodeImage(file.content);
    if (!image || image.type !== detected) {
      throw fileError('VALIDATION', 'fileTypeInvalid', 'fileTypesAccepted', { types: rules.contentTypes.join(', ') });
    }
    return storeFile(ctx, fileKey, {
      fileName: withImageExtension(fileName, image.type, fileKey),
      contentType: image.type,
      size: image.content.length,
      content: image.content,
    });
  }
  return storeFile(ctx, fileKey, { fileName, contentType: detected, size: file.content.length, content: file.content });
}

export async function deleteFile(ctx: SignedInContext, key: string): Promise<void> {
  await removeFile(ctx, uploadableKey(key));
}

/** The eClinicalWorks bulk private key: checked to be a key, encrypted at rest, never served back. */
export async function uploadPrivateKey(ctx: SignedInContext, file: UploadedFile): Promise<InstanceFile> {
  const { maxBytes } = fileRules.privateKey;
  if (file.content.length === 0) throw fileError('VALIDATION', 'fileRequired', 'fileEmpty');
  if (file.content.length > maxBytes) throw fileError('VALIDATION', 'fileTooLarge');
  if (!isPrivateKey(file.content)) throw fileError('VALIDATION', 'privateKeyInvalid');
  return storeFile(ctx, PRIVATE_KEY_FILE, {
    fileName: cleanFileName(file.fileName, 'private-key.pem'),
    contentType: 'application/x-pem-file',
    size: file.content.length,
    content: encryptFile(ctx.config.appSecret, ctx.instanceId, PRIVATE_KEY_FILE, file.content),
  });
}

export const deletePrivateKey = (ctx: SignedInContext) => removeFile(ctx, PRIVATE_KEY_FILE);

export interface ServedFile {
  meta: FileMeta;
  etag: string;
  load: () => Promise<Buffer>;
}

async function servable(db: Database, instanceId: string, key: string): Promise<ServedFile> {
  const meta = await findMeta(db, instanceId, key);
  if (!meta) throw notFound('fileNotFound');
  return {
    meta,
    etag: etagOf(meta),
    load: async () => {
      const [row] = await db
        .select({ content: instanceFiles.content })
        .from(instanceFiles)
        .where(and(eq(instanceFiles.instanceId, instanceId), eq(instanceFiles.fileKey, key)));
      if (!row) throw notFound('fileNotFound');
      return row.content;
    },
  };
}

/** Logos are not confidential: anyone may load them by clinic id, as `<img>` sends no bearer header. */
export async function publicLogo(db: Database, instanceId: string, key: string): Promise<ServedFile> {
  if (!isFileKey(key) || fileKindOf(key) !== 'logo') throw notFound('fileNotFound');
  return servable(db, instanceId, key);
}

/**
 * Logos and agreements for signed-in users of the clinic. `instance`, when given, must be the clinic
 * the request acts for: another clinic's file answers 404 like any other clinic's record.
 */
export async function clinicFile(ctx: SignedInContext, key: string, instance: string | undefined): Promise<ServedFile> {
  if (!isFileKey(key) || fileKindOf(key) === 'privateKey') throw notFound('fileNotFound');
  if (instance && instance.toLowerCase() !== ctx.instanceId) throw notFound('fileNotFound');
  return servable(ctx.db, ctx.instanceId, key);
}
