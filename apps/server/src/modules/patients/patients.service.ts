import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ActivityAction, ActivityArea } from '@pathwell/contracts/enums';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import {
  extendedQuestionSetting,
  phoneDigits,
  type PatientExtended,
  type PatientPayload,
  type PatientView,
} from '@pathwell/contracts/patients';
import { RoleCode } from '@pathwell/contracts/roles';
import type { SignedInContext } from '../../context';
import { actsAsDoctor, clinicsInScope, findVisiblePatient } from './patient-visibility.service';
import type { Database } from '../../db/client';
import { appointments, managedItems, patientPhoneNumbers, patients, userInstances, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { isOn, readSettings } from '../settings/settings.service';
import { fullNameOf } from './patient-names';

type PatientRow = typeof patients.$inferSelect;
type PhoneRow = typeof patientPhoneNumbers.$inferSelect;

const scopeOf = clinicsInScope;

/** The activity entry of a patient read or write (the list's too: patient-list.service). */
export function patientActivity(
  ctx: SignedInContext,
  db: Database,
  area: ActivityArea,
  action: ActivityAction,
  id?: string,
  description?: string,
) {
  return recordActivity(
    db,
    staffActivity(ctx, area, action, { type: id ? 'patient' : undefined, id: id, description: description }),
  );
}

function toView(row: PatientRow, phones: PhoneRow[]): PatientView {
  return {
    id: row.id,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    fullName: fullNameOf(row),
    dateOfBirth: row.dateOfBirth,
    email: row.email,
    rpmKey: row.rpmKey,
    streetAddress1: row.streetAddress1,
    streetAddress2: row.streetAddress2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    weight: Number(row.weight),
    heightFeet: row.heightFeet,
    heightInches: row.heightInches,
    height: row.height === null ? null : Number(row.height),
    genderId: row.genderId,
    maritalStatusId: row.maritalStatusId,
    ethnicityId: row.ethnicityId,
    occupationId: row.occupationId,
    payorStatusId: row.payorStatusId,
    nicotineStatusId: row.nicotineStatusId,
    currentLawSuit: row.currentLawSuit,
    historySubstanceAbuse: row.historySubstanceAbuse,
    agreementSignedDate: row.agreementSignedDate,
    doctorId: row.doctorId,
    enableEmail: row.enableEmail,
    enableText: row.enableText,
    preferredLanguage: row.preferredLanguage,
    extended: row.extended as PatientExtended,
    patientPhoneNumbers: phones.map((phone) => ({
      id: phone.id,
      phoneType: phone.phoneType,
      number: phone.number,
      contactName: phone.contactName,
      relation: phone.relation,
      isPrimary: phone.isPrimary,
    })),
    referralSource: row.referralSource,
    referringProviderId: row.referringProviderId,
    diseaseStates: row.diseaseStates,
    psychiatricHistory: row.psychiatricHistory,
    surgicalHistory: row.surgicalHistory,
    successStory: row.successStory,
    successStorySharedAt: row.successStorySharedAt?.toISOString() ?? null,
    status: row.status,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    archiveReason: row.archiveReason,
    accountClosedAt: row.accountClosedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function phonesOf(db: Database, patientId: string) {
  return db
    .select()
    .from(patientPhoneNumbers)
    .where(eq(patientPhoneNumbers.patientId, patientId))
    .orderBy(desc(patientPhoneNumbers.isPrimary), asc(patientPhoneNumbers.createdAt));
}

/** The managed list each reference field names an entry of. */
const customFieldOf = {
  genderId: 'customfield:gender',
  maritalStatusId: 'customfield:maritalstatus',
  ethnicityId: 'customfield:ethnicity',
  occupationId: 'customfield:occupationstatus',
  payorStatusId: 'customfield:payorstatus',
  referringProviderId: 'referrals',
} as const;

/** Ids must name items of this clinic in the right list, and the doctor a Doctor of this clinic. */
async function checkReferences(ctx: SignedInContext, db: Database, input: PatientPayload) {
  const fields: Record<string, ValidationMessageKey> = {};
  const wanted = Object.entries(customFieldOf).filter(([field]) => input[field as keyof typeof customFieldOf]);
  if (wanted.length > 0) {
    const ids = wanted.map(([field]) => input[field as keyof typeof customFieldOf]!);
    const found = await db
      .select({ id: managedItems.id, listType: managedItems.listType })
      .from(managedItems)
      .where(and(eq(managedItems.instanceId, ctx.instanceId), inArray(managedItems.id, ids), isNull(managedItems.deletedAt)));
    for (const [field, listType] of wanted) {
      const id = input[field as keyof typeof customFieldOf];
      if (!found.some((item) => item.id === id && item.listType === listType)) fields[field] = 'invalid';
    }
  }
  if (input.doctorId) {
    const [doctor] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, input.doctorId),
          eq(users.role, RoleCode.Doctor),
          isNull(users.deletedAt),
          sql`(${users.instanceId} = ${ctx.instanceId} or exists (select 1 from ${userInstances} where ${userInstances.userId} = ${users.id} and ${userInstances.instanceId} = ${ctx.instanceId}))`,
        ),
      );
    if (!doctor) fields.doctorId = 'invalid';
  }
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields });
}

/** Keeps the extended answers only for the questions the clinic's settings ask (extendedPatientAsk*). */
async function allowedExtended(db: Database, instanceId: string, extended: PatientExtended): Promise<PatientExtended> {
  const settings = await readSettings(db, instanceId);
  const kept: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(extendedQuestionSetting)) {
    const value = extended[key as keyof PatientExtended];
    if (isOn(settings, setting) && value !== undefined && value !== null) kept[key] = value;
  }
  return kept as PatientExtended;
}

function columnsOf(input: PatientPayload) {
  const { patientPhoneNumbers: _phones, extended: _extended, ...rest } = input;
  // Height in inches is derived, never taken from the client.
  const height =
    input.heightFeet == null && input.heightInches == null ? null : (input.heightFeet ?? 0) * 12 + (input.heightInches ?? 0);
  return {
    ...rest,
    heightFeet: input.heightFeet ?? null,
    heightInches: input.heightInches ?? null,
    height,
    genderId: input.genderId ?? null,
    maritalStatusId: input.maritalStatusId ?? null,
    ethnicityId: input.ethnicityId ?? null,
    occupationId: input.occupationId ?? null,
    payorStatusId: input.payorStatusId ?? null,
    nicotineStatusId: input.nicotineStatusId ?? null,
    agreementSignedDate: input.agreementSignedDate ?? null,
    doctorId: input.doctorId ?? null,
  };
}

function phoneRows(ctx: SignedInContext, patientId: string, input: PatientPayload) {
  // Exactly one primary number when there are any: the first marked one, else the first.
  const primaryIndex = Math.max(
    0,
    input.patientPhoneNumbers.findIndex((phone) => phone.isPrimary),
  );
  return input.patientPhoneNumbers.map((phone, index) => ({
    instanceId: ctx.instanceId,
    patientId,
    phoneType: phone.phoneType,
    number: phone.number,
    digits: phoneDigits(phone.number),
    contactName: phone.contactName,
    relation: phone.relation,
    isPrimary: index === primaryIndex,
  }));
}

export async function createPatient(ctx: SignedInContext, input: PatientPayload): Promise<PatientView> {
  // A Doctor's new patient is theirs, or they could not see it afterwards.
  const values = { ...input, doctorId: actsAsDoctor(ctx) ? ctx.actor.userId : input.doctorId };
  return ctx.db.transaction(async (tx) => {
    await checkReferences(ctx, tx, values);
    const extended = await allowedExtended(tx, ctx.instanceId, values.extended);
    const [row] = await tx
      .insert(patients)
      .values({ ...columnsOf(values), instanceId: ctx.instanceId, extended })
      .returning();
    const phones = values.patientPhoneNumbers.length
      ? await tx
          .insert(patientPhoneNumbers)
          .values(phoneRows(ctx, row!.id, values))
          .returning()
      : [];
    await patientActivity(ctx, tx, 'Patient Profile', 'Created', row!.id);
    return toView(row!, phones);
  });
}

export async function getPatient(ctx: SignedInContext, id: string): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    const row = await findVisiblePatient(ctx, tx, id, scopeOf(ctx));
    const phones = await phonesOf(tx, id);
    // In a parent's all-clinics view the entry goes to the patient's own clinic.
    await recordActivity(tx, {
      ...staffActivity(ctx, 'Patient Profile', 'Viewed', { type: 'patient', id }),
      instanceId: row.instanceId,
    });
    return toView(row, phones);
  });
}

export async function updatePatient(ctx: SignedInContext, id: string, input: PatientPayload): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    const existing = await findVisiblePatient(ctx, tx, id);
    // A Doctor does not hand patients around: one they treat through a visit keeps the doctor they have.
    const values = { ...input, doctorId: actsAsDoctor(ctx) ? existing.doctorId : input.doctorId };
    await checkReferences(ctx, tx, values);
    // Answers to questions the clinic stopped asking stay as they were.
    const asked = await allowedExtended(tx, ctx.instanceId, values.extended);
    const settings = await readSettings(tx, ctx.instanceId);
    const kept = Object.fromEntries(
      Object.entries(existing.extended).filter(
        ([key]) => !isOn(settings, extendedQuestionSetting[key as keyof typeof extendedQuestionSetting] ?? ''),
      ),
    );
    const [row] = await tx
      .update(patients)
      .set({ ...columnsOf(values), extended: { ...kept, ...asked }, updatedAt: sql`now()` })
      .where(eq(patients.id, id))
      .returning();
    await tx.delete(patientPhoneNumbers).where(eq(patientPhoneNumbers.patientId, id));
    const phones = values.patientPhoneNumbers.length
      ? await tx
          .insert(patientPhoneNumbers)
          .values(phoneRows(ctx, id, values))
          .returning()
      : [];
    await patientActivity(ctx, tx, 'Patient Profile', 'Updated', id);
    return toView(row!, phones);
  });
}

export async function deletePatient(ctx: SignedInContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, id);
    await tx
      .update(patients)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(patients.id, id));
    // Their appointments leave every list with them (the appointment scope reads no patient column).
    await tx
      .update(appointments)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(appointments.patientId, id), isNull(appointments.deletedAt)));
    await patientActivity(ctx, tx, 'Patient Profile', 'Deleted', id);
  });
}

async function changeState(
  ctx: SignedInContext,
  id: string,
  change: Partial<typeof patients.$inferInsert>,
  description: string,
): Promise<PatientView> {
  return ctx.db.transaction(async (tx) => {
    await findVisiblePatient(ctx, tx, id);
    const [row] = await tx
      .update(patients)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(patients.id, id))
      .returning();
    const phones = await phonesOf(tx, id);
    await patientActivity(ctx, tx, 'Patient Profile', 'Updated', id, description);
    return toView(row!, phones);
  });
}

export const setActive = (ctx: SignedInContext, id: string, isActive: boolean) =>
  changeState(ctx, id, { status: isActive ? 'active' : 'inactive' }, isActive ? 'Set active' : 'Set inactive');
export const archivePatient = (ctx: SignedInContext, id: string, reason: string) =>
  changeState(ctx, id, { archivedAt: new Date(), archiveReason: reason }, 'Archived');
export const unarchivePatient = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { archivedAt: null, archiveReason: null }, 'Unarchived');
export const closeAccount = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { accountClosedAt: new Date() }, 'Account closed');
/** The patient called to come back; the email and text switches stay as the patient left them. */
export const reopenAccount = (ctx: SignedInContext, id: string) =>
  changeState(ctx, id, { accountClosedAt: null }, 'Account reopened');
