import { formatClinicDateTime } from '@pathwell/contracts/clinic-time';
import type { FormLanguage } from '@pathwell/contracts/forms';
import type { IntakeWorkStep } from '@pathwell/contracts/intake';
import type { IntakeViewWithRecord } from '@pathwell/contracts/intake-record';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import type { ServiceContext } from '../../context';
import { patientLinks } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { accessExpiry, findLinkPatient, linkNotFound, requireAccess } from '../patient-contact/link-access.service';
import { clinicDisplayName } from '../patient-contact/clinic-name.service';
import { mobileTextStopped } from '../patient-contact/reach.service';
import { clinicTimeZoneFrom, isOn, readSettings, type SettingsMap } from '../settings/settings.service';
import { defaultAgreement } from './intake-documents';
import { agreementFile, agreementVersion } from './intake-agreement';
import { appointmentOf, findIntakeLink, requireReadable } from './intake-link';
import {
  CONTACT_STEP,
  contactChoiceOf,
  entriesOf,
  intakeForms,
  previousBodyMap,
  savedAnswers,
  stepStates,
} from './intake-progress';
import { checkInOffered } from './intake-check-in.service';
import { cardSidesOf } from './insurance-cards.service';
import { onFileFor } from './intake-record.service';

/* The intake as the patient opens it: where they are in it, what they saved, the agreement to sign, check-in. */

function viewOptions(settings: SettingsMap) {
  return {
    welcomeScreen: isOn(settings, 'welcomeScreenEnabled'),
    hideExitPro: isOn(settings, 'hideExitPro'),
    checkinConfirmation: isOn(settings, 'checkinConfirmationPage'),
    pharmacyRequired: isOn(settings, 'isPharmacyRequired'),
    contactOptIn: isOn(settings, 'showOptInToConsentPage'),
    ask: {
      sexualOrientation: isOn(settings, 'extendedPatientAskSexualOrientation'),
      sexAssignedAtBirth: isOn(settings, 'extendedPatientAskAssignedSexAtBirth'),
      pronouns: isOn(settings, 'extendedPatientAskPreferredPronouns'),
      communicationPreferences: isOn(settings, 'extendedPatientAskCommunicationPreferences'),
    },
  };
}

export async function intakeView(ctx: ServiceContext, token: string, bearer: string | undefined): Promise<IntakeViewWithRecord> {
  return ctx.db.transaction(async (tx) => {
    const link = await findIntakeLink(tx, token);
    requireAccess(link, bearer);
    requireReadable(link);
    const patient = await findLinkPatient(tx, link);
    const appointment = await appointmentOf(tx, link);
    const settings = await readSettings(tx, link.instanceId);
    const timeZone = clinicTimeZoneFrom(settings);
    const entries = await entriesOf(tx, link.id);
    const plan = link.intakePlan!;
    if (!link.completedAt) {
      await tx.update(patientLinks).set({ accessExpiresAt: accessExpiry() }).where(eq(patientLinks.id, link.id));
    }
    const doctorName = [appointment.doctorFirstName, appointment.doctorLastName].filter(Boolean).join(' ');
    return {
      patientFirstName: patient.firstName,
      clinicName: await clinicDisplayName(tx, link.instanceId),
      appointment: {
        id: appointment.id,
        startsAt: appointment.startsAt.toISOString(),
        startsAtText: formatClinicDateTime(appointment.startsAt, timeZone),
        doctorName: doctorName || null,
        newPatient: appointment.reason === 'new_patient',
      },
      steps: stepStates(plan, entries),
      ownDone: entries
        .filter((entry) => entry.formKey === '' && entry.step !== CONTACT_STEP && entry.completedAt !== null)
        .map((entry) => entry.step as IntakeWorkStep),
      forms: await intakeForms(tx, link, entries),
      saved: savedAnswers(entries),
      previousBodyMap: plan.steps.includes(5) ? await previousBodyMap(tx, link, appointment.startsAt) : null,
      agreement: plan.steps.includes(1)
        ? {
            title: defaultAgreement.title,
            text: defaultAgreement.text,
            version: await agreementVersion(tx, link.instanceId),
            fileUrl: (await agreementFile(tx, link.instanceId, 'en')) ? `/api/intake/${token}/agreement` : null,
          }
        : null,
      options: viewOptions(settings),
      amountDueCents: plan.steps.includes(7) ? appointment.amountDueCents : null,
      contactChoice: contactChoiceOf(entries),
      textStopped: isOn(settings, 'showOptInToConsentPage')
        ? await mobileTextStopped(tx, link.instanceId, link.patientId)
        : false,
      completedAt: link.completedAt?.toISOString() ?? null,
      checkIn: {
        offered: checkInOffered(settings, appointment, timeZone) && appointment.status === AppointmentStatus.Upcoming,
        checkedIn: appointment.status === AppointmentStatus.Checking_In,
        fromHome: isOn(settings, 'enableHomeCheckin'),
      },
      insuranceCards: plan.steps.includes(1) ? await cardSidesOf(tx, link.id) : [],
      // Past the identity check only (requireAccess above): what the clinic has, for the patient to confirm or correct.
      onFile: plan.steps.includes(1) ? await onFileFor(tx, link.instanceId, link.patientId) : null,
    };
  });
}

/** The clinic's uploaded agreement PDF in the patient's language (English when there is no Spanish one). */
export async function agreementPdf(ctx: ServiceContext, token: string, bearer: string | undefined, language: FormLanguage) {
  const link = await findIntakeLink(ctx.db, token);
  requireAccess(link, bearer);
  requireReadable(link);
  const file = await agreementFile(ctx.db, link.instanceId, language);
  if (!file) throw linkNotFound();
  return file.content;
}
