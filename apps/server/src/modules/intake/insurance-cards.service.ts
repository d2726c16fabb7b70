import type { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  INSURANCE_CARD_MAX_BYTES,
  insuranceCardSides,
  insuranceCardTypes,
  type InsuranceCardPhoto,
  type InsuranceCardSaved,
  type InsuranceCardSide,
  type InsuranceCardType,
} from '@pathwell/contracts/intake';
import type { ServiceContext, SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { intakeEntries, intakeFiles, patientLinks } from '../../db/schema';
import { reencodeImage } from '../../lib/image-type';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import {
  accessExpiry,
  findLink,
  linkNotFound,
  linkStatusOf,
  patientActivity,
  requireAccess,
  requireOpen,
} from '../patient-contact/link-access.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';

/**
 * Photos of the insurance cards in the new-patient paperwork step (issue #12): the patient sends each
 * side as the raw request body, one image per side and link (a new one replaces the old); staff open
 * them from the patient's intake. The photos are optional: the paperwork step never waits for them.
 */

const PAPERWORK_STEP = 1;
const sideLabel: Record<InsuranceCardSide, string> = {
  primaryFront: 'primary insurance card (front)',
  primaryBack: 'primary insurance card (back)',
  secondaryFront: 'secondary insurance card (front)',
  secondaryBack: 'secondary insurance card (back)',
};

// ---- reading the upload --------------------------------------------------------------------------------

/**
 * The raw body of a card upload. The bytes sit in a private field because the NUL check (input-checks
 * plugin) walks every enumerable key of a body, and a 2 MB Buffer has two million of them.
 */
export class CardUpload {
  readonly #content: Buffer;
  constructor(content: Buffer) {
    this.#content = content;
  }
  get content(): Buffer {
    return this.#content;
  }
}

const tooLarge = () =>
  new AppError('VALIDATION', 'fileLargerThan', {
    params: { megabytes: INSURANCE_CARD_MAX_BYTES / 1024 / 1024 },
    fields: { file: 'fileTooLarge' },
  });
const unreadable = () => new AppError('VALIDATION', 'uploadUnreadable', { fields: { file: 'fileUnreadable' } });
const typeRefused = () =>
  new AppError('VALIDATION', 'fileTypesAccepted', { params: { types: 'JPEG, PNG, WebP' }, fields: { file: 'fileTypeInvalid' } });

/**
 * Content-type parser of the card routes, for every content type: it reads at most the limit and
 * refuses more with a field error (Fastify's own limit answers a bare 413). What the bytes are is the
 * service's question, asked after the link's access token is checked.
 */
export function readCardUpload(request: FastifyRequest, payload: Readable): Promise<CardUpload> {
  if (Number(request.headers['content-length']) > INSURANCE_CARD_MAX_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > INSURANCE_CARD_MAX_BYTES) {
        stop();
        reject(tooLarge());
        return;
      }
      chunks.push(bytes);
    }
    function onEnd() {
      stop();
      resolve(new CardUpload(Buffer.concat(chunks, size)));
    }
    function onError() {
      stop();
      reject(unreadable());
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}

/**
 * The header and the decoded image must agree on one of the accepted types. What is kept is the image
 * encoded again, without its EXIF (a phone photo's GPS position included) or any other metadata.
 */
async function checkedImage(
  declaredType: string | undefined,
  content: Buffer | undefined,
): Promise<{ contentType: InsuranceCardType; content: Buffer }> {
  if (!content || content.length === 0) throw new AppError('VALIDATION', 'fileEmpty', { fields: { file: 'fileRequired' } });
  const declared = (declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(insuranceCardTypes as readonly string[]).includes(declared)) throw typeRefused();
  const image = await reencodeImage(content);
  if (!image || image.type !== declared) throw typeRefused();
  return { contentType: image.type, content: image.content };
}

// ---- the patient ------------------------------------------------------------------------------------

type LinkRow = typeof patientLinks.$inferSelect;

/** An intake link whose plan has the paperwork step, opened with its access token; anything else is 404. */
async function paperworkLink(db: Database, token: string, bearer: string | undefined, forUpdate = false): Promise<LinkRow> {
  const link = await findLink(db, token, forUpdate);
  if (link.kind !== 'intake' || !link.intakePlan || !link.appointmentId) throw linkNotFound();
  requireAccess(link, bearer);
  if (!link.intakePlan.steps.includes(PAPERWORK_STEP)) throw linkNotFound();
  return link;
}

/** Photos change only while the paperwork step does: a finished step is kept as it was sent (decision 0032). */
async function requireChangeable(tx: Database, link: LinkRow) {
  requireOpen(link);
  const [entry] = await tx
    .select({ completedAt: intakeEntries.completedAt })
    .from(intakeEntries)
    .where(and(eq(intakeEntries.linkId, link.id), eq(intakeEntries.step, PAPERWORK_STEP), eq(intakeEntries.formKey, '')));
  if (entry?.completedAt) throw new AppError('CONFLICT', 'intakeStepFinished');
}

export async function saveCard(
  ctx: ServiceContext,
  token: string,
  bearer: string | undefined,
  side: InsuranceCardSide,
  upload: { declaredType: string | undefined; content: Buffer | undefined },
): Promise<InsuranceCardSaved> {
  // The link and its token first (a stranger learns nothing about the file), then the decoding, which
  // takes a moment, outside the transaction that locks the link.
  await paperworkLink(ctx.db, token, bearer);
  const { contentType, content } = await checkedImage(upload.declaredType, upload.content);
  return ctx.db.transaction(async (tx) => {
    const link = await paperworkLink(tx, token, bearer, true);
    await requireChangeable(tx, link);
    const [earlier] = await tx
      .select({ id: intakeFiles.id })
      .from(intakeFiles)
      .where(and(eq(intakeFiles.linkId, link.id), eq(intakeFiles.side, side)));
    const values = { contentType, size: content.length, content, createdAt: new Date() };
    await tx
      .insert(intakeFiles)
      .values({ instanceId: link.instanceId, patientId: link.patientId, linkId: link.id, side, ...values })
      .onConflictDoUpdate({ target: [intakeFiles.linkId, intakeFiles.side], set: values });
    await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    await recordActivity(
      tx,
      patientActivity(ctx, link, 'Intake Information', earlier ? 'Updated' : 'Created', {
        type: 'patient',
        id: link.patientId,
        description: `Patient ${earlier ? 'replaced' : 'added'} a photo of the ${sideLabel[side]} in the intake`,
      }),
    );
    return { side, contentType, size: content.length };
  });
}

export async function deleteCard(ctx: ServiceContext, token: string, bearer: string | undefined, side: InsuranceCardSide) {
  await ctx.db.transaction(async (tx) => {
    const link = await paperworkLink(tx, token, bearer, true);
    await requireChangeable(tx, link);
    const removed = await tx
      .delete(intakeFiles)
      .where(and(eq(intakeFiles.linkId, link.id), eq(intakeFiles.side, side)))
      .returning({ id: intakeFiles.id });
    // Removing a photo that is not there changes nothing (a retried tap).
    if (removed.length === 0) return;
    await recordActivity(tx, {
      ...patientActivity(ctx, link, 'Intake Information', 'Updated', {
        type: 'patient',
        id: link.patientId,
        description: `Patient removed the photo of the ${sideLabel[side]} in the intake`,
      }),
      action: 'Deleted',
    });
  });
}

/** The patient's own photo of a side, so the step can show it again after a reload. */
export async function cardImage(ctx: ServiceContext, token: string, bearer: string | undefined, side: InsuranceCardSide) {
  const link = await paperworkLink(ctx.db, token, bearer);
  // A finished intake reads again (read-only); any other closed link ends here.
  if (linkStatusOf(link) !== 'completed') requireOpen(link);
  const [file] = await ctx.db
    .select({ contentType: intakeFiles.contentType, content: intakeFiles.content })
    .from(intakeFiles)
    .where(and(eq(intakeFiles.linkId, link.id), eq(intakeFiles.side, side)));
  if (!file) throw notFound('fileNotFound');
  return file;
}

/** The sides photographed in a link's intake, in the order of `insuranceCardSides`. */
export async function cardSidesOf(db: Database, linkId: string): Promise<InsuranceCardSide[]> {
  const rows = await db.select({ side: intakeFiles.side }).from(intakeFiles).where(eq(intakeFiles.linkId, linkId));
  return insuranceCardSides.filter((side) => rows.some((row) => row.side === side));
}

// ---- staff ---------------------------------------------------------------------------------------------

const cardUrl = (patientId: string, fileId: string) => `/api/patients/${patientId}/insurance-cards/${fileId}`;

/** The card photos of a patient's intake links (no image bytes), to be picked per link. */
export async function cardPhotosOf(
  db: Database,
  instanceId: string,
  patientId: string,
  linkIds: string[],
): Promise<(linkId: string) => InsuranceCardPhoto[]> {
  const rows = linkIds.length
    ? await db
        .select({ id: intakeFiles.id, linkId: intakeFiles.linkId, side: intakeFiles.side, createdAt: intakeFiles.createdAt })
        .from(intakeFiles)
        .where(
          and(eq(intakeFiles.instanceId, instanceId), eq(intakeFiles.patientId, patientId), inArray(intakeFiles.linkId, linkIds)),
        )
    : [];
  const order = (side: InsuranceCardSide) => insuranceCardSides.indexOf(side);
  return (linkId) =>
    rows
      .filter((row) => row.linkId === linkId)
      .sort((a, b) => order(a.side) - order(b.side))
      .map((row) => ({ id: row.id, side: row.side, createdAt: row.createdAt.toISOString(), url: cardUrl(patientId, row.id) }));
}

/** A card photo for staff: the patient must be visible to them (a Doctor's own patients), as for a consent PDF. */
export async function staffCardImage(ctx: SignedInContext, patientId: string, fileId: string) {
  const patient = await findVisiblePatient(ctx, ctx.db, patientId);
  const [file] = await ctx.db
    .select({ id: intakeFiles.id, side: intakeFiles.side, contentType: intakeFiles.contentType, content: intakeFiles.content })
    .from(intakeFiles)
    .where(and(eq(intakeFiles.instanceId, ctx.instanceId), eq(intakeFiles.patientId, patient.id), eq(intakeFiles.id, fileId)));
  if (!file) throw notFound('fileNotFound');
  await recordActivity(
    ctx.db,
    staffActivity(ctx, 'Intake Information', 'Viewed', {
      type: 'patient',
      id: patient.id,
      description: `Opened the photo of the ${sideLabel[file.side]} of patient ${patient.id} (file ${file.id})`,
    }),
  );
  return file;
}
