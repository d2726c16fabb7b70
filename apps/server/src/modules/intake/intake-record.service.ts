import { and, asc, eq } from 'drizzle-orm';
import { enumerations } from '@pathwell/contracts/enumerations';
import type { Paperwork } from '@pathwell/contracts/intake';
import {
  intakeOnFileSchema,
  type IntakeChange,
  type IntakeOnFile,
  type IntakeRecordField,
  type PatientCoverage,
} from '@pathwell/contracts/intake-record';
import { extendedQuestionSetting, PatientPhoneType, type PatientExtended } from '@pathwell/contracts/patients';
import type { SignedInContext } from '../../context';
import type { Database } from '../../db/client';
import { intakeEntries, patientLinks, patientPhoneNumbers, patients } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from '../patients/patient-visibility.service';
import { isOn, readSettings, type SettingsMap } from '../settings/settings.service';

/**
 * The paperwork's answers against the patient record (issue #24 §4, decision 0056): what is on file goes
 * to the patient to confirm, the patient's answer fills only what the record lacks, and anything that
 * differs waits for staff to accept it field by field.
 */

type PatientRow = typeof patients.$inferSelect;
type PhoneRow = typeof patientPhoneNumbers.$inferSelect;
type Values = Record<string, string>;

const phoneTypes = { MOBILE: PatientPhoneType.MOBILE, HOME: PatientPhoneType.HOME, WORK: PatientPhoneType.WORK } as const;
const phoneField = { MOBILE: 'mobilePhone', HOME: 'homePhone', WORK: 'workPhone' } as const;
const sexCodes = { female: 'F', male: 'M' } as const;
const sexOfCode: Record<string, string> = { F: 'female', M: 'male', UNK: 'unknown' };
const communicationCodes = { email: 1, text: 2, phone: 3, mail: 4 } as const;
const communicationOfCode = Object.fromEntries(Object.entries(communicationCodes).map(([key, code]) => [code, key]));
const extendedFieldSetting = {
  sexAssignedAtBirth: extendedQuestionSetting.assignedSexAtBirth,
  pronouns: extendedQuestionSetting.preferredPronouns,
  communicationPreference: extendedQuestionSetting.communicationPreferences,
} as const;

async function phonesOf(db: Database, instanceId: string, patientId: string): Promise<PhoneRow[]> {
  return db
    .select()
    .from(patientPhoneNumbers)
    .where(and(eq(patientPhoneNumbers.instanceId, instanceId), eq(patientPhoneNumbers.patientId, patientId)))
    .orderBy(asc(patientPhoneNumbers.createdAt), asc(patientPhoneNumbers.id));
}

const emergencyOf = (phones: PhoneRow[]) => phones.find((phone) => phone.phoneType === PatientPhoneType.EMERGENCY_CONTACT);
const pronounLabel = (code: unknown) => enumerations.pronouns.find((option) => option.value === code)?.label.en ?? null;
/** A typed pronoun set is taken only when it is one of the coded list's, in either language. */
function pronounCode(text: string): number | null {
  const wanted = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const found = enumerations.pronouns.find((option) =>
    [option.label.en, option.label.es].some((label) => label?.toLowerCase() === wanted),
  );
  return typeof found?.value === 'number' ? found.value : null;
}

/** Only the non-empty parts; null when nothing is left. */
function values(parts: Record<string, string | null | undefined | boolean>): Values | null {
  const kept: Values = {};
  for (const [key, value] of Object.entries(parts)) {
    if (typeof value === 'boolean') {
      if (value) kept[key] = 'true';
    } else if (value && value.trim()) kept[key] = value.trim();
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

const insuranceValues = (insurance: Paperwork['primaryInsurance']) =>
  values({
    payer: insurance?.payer,
    memberId: insurance?.memberId,
    groupNumber: insurance?.groupNumber,
    subscriberName: insurance?.subscriberName,
    relationshipToInsured: insurance?.relationshipToInsured,
  });

const normal = (key: string, value: string) =>
  key === 'number' || key === 'phone' ? value.replace(/\D/g, '').slice(-10) : value.trim().replace(/\s+/g, ' ').toLowerCase();
function same(a: Values | null, b: Values | null): boolean {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].every((key) => normal(key, a?.[key] ?? '') === normal(key, b?.[key] ?? ''));
}

/** The record's side of each field, as text parts. */
function recordValues(patient: PatientRow, phones: PhoneRow[]): Record<IntakeRecordField, Values | null> {
  const coverage = (patient.coverage ?? {}) as PatientCoverage;
  const extended = patient.extended as PatientExtended;
  const phone = (type: number) => values({ number: phones.find((row) => row.phoneType === type)?.number });
  const emergency = emergencyOf(phones);
  return {
    email: values({ email: patient.email }),
    address: values({
      streetAddress1: patient.streetAddress1,
      streetAddress2: patient.streetAddress2,
      city: patient.city,
      state: patient.state,
      zip: patient.zip,
    }),
    mobilePhone: phone(PatientPhoneType.MOBILE),
    homePhone: phone(PatientPhoneType.HOME),
    workPhone: phone(PatientPhoneType.WORK),
    preferredLanguage: values({ language: patient.preferredLanguage }),
    emergencyContact: emergency
      ? values({ name: emergency.contactName, relationship: emergency.relation, phone: emergency.number })
      : null,
    primaryInsurance: coverage.selfPay ? { selfPay: 'true' } : insuranceValues(coverage.primaryInsurance),
    secondaryInsurance: insuranceValues(coverage.secondaryInsurance),
    pharmacy: values({ name: coverage.pharmacy?.name, phone: coverage.pharmacy?.phone }),
    sexAssignedAtBirth: values({ value: sexOfCode[extended.assignedSexAtBirth ?? ''] ?? extended.assignedSexAtBirth }),
    pronouns: values({ value: pronounLabel(extended.preferredPronouns) }),
    communicationPreference: values({
      value: (extended.communicationPreferences ?? []).map((code) => communicationOfCode[code] ?? String(code)).join(', '),
    }),
  };
}

/** The patient's side of each field; null where the patient left it blank (a blank never clears the record). */
function answerValues(paperwork: Paperwork): Record<IntakeRecordField, Values | null> {
  const phone = (type: keyof typeof phoneTypes) => values({ number: paperwork.phones?.find((row) => row.type === type)?.number });
  const emergency = paperwork.contacts?.find((contact) => contact.role === 'emergency');
  return {
    email: values({ email: paperwork.email }),
    address: values({
      streetAddress1: paperwork.streetAddress1,
      streetAddress2: paperwork.streetAddress2,
      city: paperwork.city,
      state: paperwork.state,
      zip: paperwork.zip,
    }),
    mobilePhone: phone('MOBILE'),
    homePhone: phone('HOME'),
    workPhone: phone('WORK'),
    preferredLanguage: values({ language: paperwork.preferredLanguage }),
    emergencyContact: emergency
      ? values({ name: emergency.name, relationship: emergency.relationship, phone: emergency.phone })
      : null,
    primaryInsurance: paperwork.selfPay ? { selfPay: 'true' } : insuranceValues(paperwork.primaryInsurance),
    secondaryInsurance: paperwork.selfPay ? null : insuranceValues(paperwork.secondaryInsurance),
    pharmacy: values({ name: paperwork.pharmacy?.name, phone: paperwork.pharmacy?.phone }),
    sexAssignedAtBirth: values({ value: paperwork.extended?.sexAssignedAtBirth }),
    pronouns: values({ value: paperwork.extended?.pronouns }),
    communicationPreference: values({ value: paperwork.extended?.communicationPreference }),
  };
}

function blockedOf(field: IntakeRecordField, paperwork: Paperwork): IntakeChange['blocked'] {
  const sex = paperwork.extended?.sexAssignedAtBirth;
  if (field === 'sexAssignedAtBirth' && sex && !(sex in sexCodes)) return 'notCoded';
  if (field === 'pronouns' && paperwork.extended?.pronouns && pronounCode(paperwork.extended.pronouns) === null)
    return 'notCoded';
  return null;
}

/** Each field the patient answered, on file against the answer, in the page's order. */
function changesOf(patient: PatientRow, phones: PhoneRow[], paperwork: Paperwork, settings: SettingsMap): IntakeChange[] {
  const onFile = recordValues(patient, phones);
  const answers = answerValues(paperwork);
  const changes: IntakeChange[] = [];
  for (const field of Object.keys(answers) as IntakeRecordField[]) {
    const answer = answers[field];
    if (!answer) continue;
    const setting = extendedFieldSetting[field as keyof typeof extendedFieldSetting];
    // The record keeps an extended answer only while the clinic asks the question.
    if (setting && !isOn(settings, setting)) continue;
    changes.push({
      field,
      onFile: onFile[field],
      answer,
      differs: !same(onFile[field], answer),
      blocked: blockedOf(field, paperwork),
    });
  }
  return changes;
}

async function recordSide(db: Database, instanceId: string, patientId: string) {
  const [patient] = await db
    .select()
    .from(patients)
    .where(and(eq(patients.instanceId, instanceId), eq(patients.id, patientId)));
  return { patient: patient!, phones: await phonesOf(db, instanceId, patientId), settings: await readSettings(db, instanceId) };
}

/** What the clinic has, in the paperwork's shape, for the patient (past the identity check) to confirm or correct. */
export async function onFileFor(db: Database, instanceId: string, patientId: string): Promise<IntakeOnFile> {
  const { patient, phones, settings } = await recordSide(db, instanceId, patientId);
  const coverage = (patient.coverage ?? {}) as PatientCoverage;
  const extended = patient.extended as PatientExtended;
  const emergency = emergencyOf(phones);
  const asked = (field: keyof typeof extendedFieldSetting) => isOn(settings, extendedFieldSetting[field]);
  const communication = communicationOfCode[(extended.communicationPreferences ?? [])[0] ?? -1];
  const sex = Object.entries(sexCodes).find(([, code]) => code === extended.assignedSexAtBirth)?.[0];
  const candidate: Record<string, unknown> = {
    email: patient.email ?? undefined,
    streetAddress1: patient.streetAddress1 ?? undefined,
    streetAddress2: patient.streetAddress2 ?? undefined,
    city: patient.city ?? undefined,
    state: patient.state ?? undefined,
    zip: patient.zip ?? undefined,
    preferredLanguage: patient.preferredLanguage,
    phones: (Object.keys(phoneTypes) as (keyof typeof phoneTypes)[]).flatMap((type) => {
      const row = phones.find((phone) => phone.phoneType === phoneTypes[type]);
      return row ? [{ type, number: row.number }] : [];
    }),
    contacts: emergency
      ? [
          {
            role: 'emergency',
            name: emergency.contactName ?? '',
            relationship: emergency.relation ?? undefined,
            phone: emergency.number,
          },
        ]
      : undefined,
    selfPay: coverage.selfPay,
    primaryInsurance: coverage.primaryInsurance,
    secondaryInsurance: coverage.secondaryInsurance,
    pharmacy: coverage.pharmacy,
    extended: {
      sexAssignedAtBirth: asked('sexAssignedAtBirth') ? sex : undefined,
      pronouns: asked('pronouns') ? (pronounLabel(extended.preferredPronouns) ?? undefined) : undefined,
      communicationPreference: asked('communicationPreference') ? communication : undefined,
    },
  };
  // A value the record holds in a form the page would refuse (an old import, a long name) is left for the patient to type.
  const onFile: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (value === undefined) continue;
    const shape = intakeOnFileSchema.shape[key as keyof typeof intakeOnFileSchema.shape];
    const parsed = shape.safeParse(value);
    if (parsed.success) onFile[key] = parsed.data;
  }
  return onFile as IntakeOnFile;
}

// ---- writing to the record ---------------------------------------------------------------------------

async function setPhone(
  tx: Database,
  patient: PatientRow,
  type: number,
  number: string,
  contact?: { name: string; relation: string | null },
) {
  const digits = number.replace(/\D/g, '').slice(-10);
  if (type === PatientPhoneType.EMERGENCY_CONTACT) {
    const existing = emergencyOf(await phonesOf(tx, patient.instanceId, patient.id));
    if (existing) {
      await tx
        .update(patientPhoneNumbers)
        .set({ number, digits, contactName: contact?.name ?? null, relation: contact?.relation ?? null, updatedAt: new Date() })
        .where(and(eq(patientPhoneNumbers.instanceId, patient.instanceId), eq(patientPhoneNumbers.id, existing.id)));
      return;
    }
  } else {
    await tx
      .delete(patientPhoneNumbers)
      .where(
        and(
          eq(patientPhoneNumbers.instanceId, patient.instanceId),
          eq(patientPhoneNumbers.patientId, patient.id),
          eq(patientPhoneNumbers.phoneType, type),
        ),
      );
  }
  await tx.insert(patientPhoneNumbers).values({
    instanceId: patient.instanceId,
    patientId: patient.id,
    phoneType: type,
    number,
    digits,
    contactName: contact?.name ?? null,
    relation: contact?.relation ?? null,
    isPrimary: type === PatientPhoneType.MOBILE,
  });
}

/** Takes one answered field into the record. */
async function takeField(tx: Database, patient: PatientRow, field: IntakeRecordField, paperwork: Paperwork) {
  const update = (set: Partial<typeof patients.$inferInsert>) =>
    tx
      .update(patients)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(patients.instanceId, patient.instanceId), eq(patients.id, patient.id)));
  const coverage = { ...((patient.coverage ?? {}) as PatientCoverage) };
  const extended = { ...(patient.extended as PatientExtended) };
  switch (field) {
    case 'email':
      return update({ email: paperwork.email || null });
    case 'address':
      return update({
        streetAddress1: paperwork.streetAddress1 || null,
        streetAddress2: paperwork.streetAddress2 || null,
        city: paperwork.city || null,
        state: paperwork.state || null,
        zip: paperwork.zip || null,
      });
    case 'mobilePhone':
    case 'homePhone':
    case 'workPhone': {
      const type = (Object.keys(phoneField) as (keyof typeof phoneField)[]).find((key) => phoneField[key] === field)!;
      const phone = paperwork.phones?.find((row) => row.type === type);
      return phone ? setPhone(tx, patient, phoneTypes[type], phone.number) : undefined;
    }
    case 'preferredLanguage':
      return paperwork.preferredLanguage ? update({ preferredLanguage: paperwork.preferredLanguage }) : undefined;
    case 'emergencyContact': {
      const contact = paperwork.contacts?.find((row) => row.role === 'emergency');
      if (!contact?.phone) return undefined;
      return setPhone(tx, patient, PatientPhoneType.EMERGENCY_CONTACT, contact.phone, {
        name: contact.name,
        relation: contact.relationship || null,
      });
    }
    case 'primaryInsurance':
      coverage.selfPay = paperwork.selfPay ?? false;
      coverage.primaryInsurance = paperwork.selfPay ? undefined : paperwork.primaryInsurance;
      if (paperwork.selfPay) coverage.secondaryInsurance = undefined;
      return update({ coverage });
    case 'secondaryInsurance':
      coverage.secondaryInsurance = paperwork.secondaryInsurance;
      return update({ coverage });
    case 'pharmacy':
      coverage.pharmacy = paperwork.pharmacy;
      return update({ coverage });
    case 'sexAssignedAtBirth':
      extended.assignedSexAtBirth = sexCodes[paperwork.extended!.sexAssignedAtBirth as keyof typeof sexCodes];
      return update({ extended });
    case 'pronouns':
      extended.preferredPronouns = pronounCode(paperwork.extended!.pronouns!);
      return update({ extended });
    case 'communicationPreference':
      extended.communicationPreferences = [communicationCodes[paperwork.extended!.communicationPreference!]];
      return update({ extended });
  }
}

/**
 * Finishing the paperwork fills what the record does not have yet; nothing on file is replaced (that is
 * staff's choice, `acceptIntakeChanges`). Returns the fields filled.
 */
export async function fillBlanks(tx: Database, instanceId: string, patientId: string, paperwork: Paperwork) {
  const { patient, phones, settings } = await recordSide(tx, instanceId, patientId);
  const blanks = changesOf(patient, phones, paperwork, settings).filter(
    (change) =>
      change.onFile === null &&
      change.blocked === null &&
      // The record always has a language, and extended answers are coded choices staff confirm.
      !['preferredLanguage', 'sexAssignedAtBirth', 'pronouns', 'communicationPreference'].includes(change.field),
  );
  for (const change of blanks) {
    const [fresh] = await tx
      .select()
      .from(patients)
      .where(and(eq(patients.instanceId, instanceId), eq(patients.id, patientId)));
    await takeField(tx, fresh!, change.field, paperwork);
  }
  return blanks.map((change) => change.field);
}

/**
 * What the patient answered on one finished step of one of their intake links (1 paperwork, 2 health
 * history); 404 when there is none, 409 while the patient has not finished it.
 */
export async function finishedStepData<T>(
  ctx: SignedInContext,
  tx: Database,
  patientId: string,
  linkId: string,
  step: 1 | 2,
): Promise<T> {
  const [entry] = await tx
    .select({ data: intakeEntries.data, completedAt: intakeEntries.completedAt })
    .from(intakeEntries)
    .innerJoin(patientLinks, eq(patientLinks.id, intakeEntries.linkId))
    .where(
      and(
        eq(intakeEntries.instanceId, ctx.instanceId),
        eq(intakeEntries.linkId, linkId),
        eq(patientLinks.patientId, patientId),
        eq(patientLinks.kind, 'intake'),
        eq(intakeEntries.step, step),
        eq(intakeEntries.formKey, ''),
      ),
    );
  if (!entry) throw notFound();
  if (!entry.completedAt) throw new AppError('CONFLICT', 'intakeStepNotFinished');
  return entry.data as T;
}

/** Staff take the ticked fields of the patient's answer into the record; returns the changes as they now stand. */
export async function acceptIntakeChanges(
  ctx: SignedInContext,
  patientId: string,
  linkId: string,
  fields: IntakeRecordField[],
): Promise<IntakeChange[]> {
  return ctx.db.transaction(async (tx) => {
    const patient = await findVisiblePatient(ctx, tx, patientId);
    const paperwork = await finishedStepData<Paperwork>(ctx, tx, patient.id, linkId, 1);
    const before = await recordSide(tx, ctx.instanceId, patient.id);
    const offered = changesOf(before.patient, before.phones, paperwork, before.settings);
    const problems: Record<string, 'invalid'> = {};
    fields.forEach((field, index) => {
      const change = offered.find((candidate) => candidate.field === field);
      if (!change || change.blocked) problems[`fields.${index}`] = 'invalid';
    });
    if (Object.keys(problems).length > 0) throw new AppError('VALIDATION', 'valuesInvalid', { fields: problems });
    const wanted = [...new Set(fields)];
    for (const field of wanted) {
      const [fresh] = await tx
        .select()
        .from(patients)
        .where(and(eq(patients.instanceId, ctx.instanceId), eq(patients.id, patient.id)));
      await takeField(tx, fresh!, field, paperwork);
    }
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Updated', {
        type: 'patient',
        id: patient.id,
        description: `Accepted from intake ${linkId} into the record: ${wanted.join(', ')}`,
      }),
    );
    const after = await recordSide(tx, ctx.instanceId, patient.id);
    return changesOf(after.patient, after.phones, paperwork, after.settings);
  });
}

/** The record side for many links of one patient at once (the dashboard card). */
export async function changesForLinks(
  db: Database,
  instanceId: string,
  patientId: string,
  paperworkOf: (linkId: string) => Paperwork | null,
  linkIds: string[],
) {
  const record = linkIds.length > 0 ? await recordSide(db, instanceId, patientId) : null;
  return (linkId: string) => {
    const paperwork = paperworkOf(linkId);
    return record && paperwork ? changesOf(record.patient, record.phones, paperwork, record.settings) : [];
  };
}
