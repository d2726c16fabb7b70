import { instrumentSlugs } from '@pathwell/contracts/patient-links';

type PatientRoute =
  | { kind: 'instrument'; slug: string; token: string; appointmentId: string | null }
  | { kind: 'custom'; token: string }
  | { kind: 'intake'; token: string; appointmentId: string | null }
  | {
      kind: 'page';
      page: 'intakeComplete' | 'intakeNotAvailable' | 'checkinComplete' | 'thankYou' | 'exit' | 'useYourLink';
      token: '';
    }
  | { kind: 'selfCheckIn'; patientId: string; appointmentId: string; token: '' }
  | { kind: 'closeAccount'; patientId: string; closeToken: string; token: '' }
  | { kind: 'consent'; purpose: 'digitalConsent' | 'resign'; token: string }
  | { kind: 'painJournal'; patientId: string; journalToken: string; token: '' };

const slugs = new Set<string>(Object.values(instrumentSlugs));

/**
 * The patient routes of section 2, read from the path without a router:
 *   /patients/{slug}/{token}/{appointmentId?}          a questionnaire link
 *   /customform/{token}/surveryform                    a custom form link
 *   /patients/intake/{token}/{appointmentId?}          an intake link (decision 0032), and its
 *   /patients/appointmentdashboard/{token}/{appointmentId}/{revisit?}   step list
 *   /patients/intakecomplete, /patients/intakenotavailable, /checkincomplete, /homecheckincomplete, /thankyou, /exit
 *   /patients/{patientId}/appointments/{appointmentId}/patient-checkin   self check-in from a QR code
 *   /patients/closeaccount/{patientId}/{token}          the emailed close-account confirmation (decision 0036)
 *   /patients/digitalconsentform/{token}, /patients/resignconsent/{token}   consents signed on their own
 *   /periodicvas/{patientId}/{token}                   the pain journal between visits (decision 0042)
 * Fixed words ignore case, as the staff router does; the token keeps its case.
 */
/**
 * The section 2 addresses of single intake steps (/newpatientpaperwork/{id}, …/healthhistoryforms,
 * …/customscreeners, …/clientInfo, …/client-enquiry, …/payment, /clinical/healthhistoryform): in Pathwell
 * every step lives inside the one intake link (decision 0032), so these pages say to open that link.
 */
function isIntakeStepPath(parts: string[]): boolean {
  const words = parts.map((part) => part.toLowerCase());
  const [first, , third, fourth, fifth] = words;
  if ((first === 'newpatientpaperwork' || first === 'newpatientpaperworkdrchorono') && parts.length <= 2) return true;
  if (first === 'clinical' && words[1] === 'healthhistoryform' && parts.length === 2) return true;
  if (first !== 'patients' || parts.length < 4) return false;
  if (third === 'appointments' && fifth === 'healthhistoryforms' && parts.length <= 6) return true;
  if (third === 'appointments' && fifth === 'customscreeners' && parts.length === 5) return true;
  if ((third === 'clientinfo' || third === 'payment') && parts.length === 4) return true;
  return third === 'clientenquiry' && words[4] === 'client-enquiry' && parts.length === 5 && fourth !== undefined;
}

export function parsePatientPath(pathname: string): PatientRoute | null {
  let parts: string[];
  try {
    parts = pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
  const [first, second, third, fourth, ...rest] = parts;
  const firstWord = first?.toLowerCase();
  if (parts.length === 1 && (firstWord === 'checkincomplete' || firstWord === 'homecheckincomplete')) {
    return { kind: 'page', page: 'checkinComplete', token: '' };
  }
  if (isIntakeStepPath(parts)) return { kind: 'page', page: 'useYourLink', token: '' };
  if (parts.length === 1 && firstWord === 'thankyou') return { kind: 'page', page: 'thankYou', token: '' };
  if (parts.length === 1 && firstWord === 'exit') return { kind: 'page', page: 'exit', token: '' };
  if (
    parts.length === 5 &&
    firstWord === 'patients' &&
    third?.toLowerCase() === 'appointments' &&
    rest[0]?.toLowerCase() === 'patient-checkin' &&
    second &&
    fourth
  ) {
    return { kind: 'selfCheckIn', patientId: second, appointmentId: fourth, token: '' };
  }
  const secondWord = second?.toLowerCase();
  if (firstWord === 'patients' && secondWord === 'closeaccount' && parts.length === 4 && third && fourth) {
    return { kind: 'closeAccount', patientId: third, closeToken: fourth, token: '' };
  }
  if (firstWord === 'periodicvas' && parts.length === 3 && second && third) {
    return { kind: 'painJournal', patientId: second, journalToken: third, token: '' };
  }
  if (firstWord === 'patients' && (secondWord === 'digitalconsentform' || secondWord === 'resignconsent') && parts.length === 3) {
    return { kind: 'consent', purpose: secondWord === 'resignconsent' ? 'resign' : 'digitalConsent', token: third! };
  }
  if (firstWord === 'patients' && parts.length === 2) {
    if (secondWord === 'intakecomplete') return { kind: 'page', page: 'intakeComplete', token: '' };
    if (secondWord === 'intakenotavailable') return { kind: 'page', page: 'intakeNotAvailable', token: '' };
  }
  if (firstWord === 'patients' && (secondWord === 'intake' || secondWord === 'appointmentdashboard') && third) {
    if (rest.length > (secondWord === 'appointmentdashboard' ? 1 : 0)) return null;
    return { kind: 'intake', token: third, appointmentId: fourth ?? null };
  }
  if (rest.length > 0 || !first || !second || !third) return null;
  if (firstWord === 'patients' && slugs.has(second.toLowerCase())) {
    return { kind: 'instrument', slug: second.toLowerCase(), token: third, appointmentId: fourth ?? null };
  }
  if (firstWord === 'customform' && third.toLowerCase() === 'surveryform' && fourth === undefined) {
    return { kind: 'custom', token: second };
  }
  return null;
}
