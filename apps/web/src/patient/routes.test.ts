import { describe, expect, it } from 'vitest';
import { customFormPath, instrumentPath, instrumentSlugs } from '@pathwell/contracts/patient-links';
import enPatient from '../locales/en/patient.json';
import esPatient from '../locales/es/patient.json';
import { formatDateOfBirth, normalizeDateOfBirth } from './date-of-birth';
import { parsePatientPath } from './routes';

const token = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';

describe('patient paths', () => {
  it('reads every instrument link, with and without an appointment', () => {
    for (const code of Object.keys(instrumentSlugs).map(Number) as (keyof typeof instrumentSlugs)[]) {
      expect(parsePatientPath(instrumentPath(code, token))).toEqual({
        kind: 'instrument',
        slug: instrumentSlugs[code],
        token,
        appointmentId: null,
      });
      expect(parsePatientPath(instrumentPath(code, token, 'appt-1'))).toMatchObject({ token, appointmentId: 'appt-1' });
    }
    expect(parsePatientPath(`/Patients/PHQ9/${token}/`)).toMatchObject({ slug: 'phq9', token });
  });

  it('reads intake links, their step list and the intake pages (decision 0032)', () => {
    expect(parsePatientPath(`/patients/intake/${token}/appt-1`)).toEqual({ kind: 'intake', token, appointmentId: 'appt-1' });
    expect(parsePatientPath(`/patients/intake/${token}`)).toEqual({ kind: 'intake', token, appointmentId: null });
    expect(parsePatientPath(`/patients/appointmentdashboard/${token}/appt-1/revisit`)).toEqual({
      kind: 'intake',
      token,
      appointmentId: 'appt-1',
    });
    expect(parsePatientPath(`/patients/intake/${token}/appt-1/extra`)).toBeNull();
    expect(parsePatientPath('/patients/intakecomplete')).toEqual({ kind: 'page', page: 'intakeComplete', token: '' });
    expect(parsePatientPath('/thankyou')).toEqual({ kind: 'page', page: 'thankYou', token: '' });
    const p = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
    const a = '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
    for (const path of [
      '/newpatientpaperwork',
      `/newpatientpaperwork/${p}`,
      `/newpatientpaperworkdrchorono/${p}`,
      '/clinical/healthhistoryform',
      `/patients/${p}/appointments/${a}/healthhistoryforms`,
      `/patients/${p}/appointments/${a}/healthhistoryforms/12`,
      `/patients/${p}/appointments/${a}/customscreeners`,
      `/patients/${p}/clientInfo/${a}`,
      `/patients/${p}/clientenquiry/${a}/client-enquiry`,
      `/patients/${p}/payment/${a}`,
    ]) {
      expect(parsePatientPath(path), path).toEqual({ kind: 'page', page: 'useYourLink', token: '' });
    }
    expect(parsePatientPath(`/patients/${p}/appointments/${a}/patient-checkin`)).toMatchObject({ kind: 'selfCheckIn' });
    expect(parsePatientPath('/Exit/')).toEqual({ kind: 'page', page: 'exit', token: '' });
    expect(parsePatientPath('/patients/intakenotavailable')).toMatchObject({ page: 'intakeNotAvailable' });
    expect(parsePatientPath('/homecheckincomplete')).toMatchObject({ page: 'checkinComplete' });
    expect(parsePatientPath('/checkincomplete')).toMatchObject({ page: 'checkinComplete' });
    // The staff dashboard of the side menu is not a patient page.
    expect(parsePatientPath('/patients/appointmentdashboard')).toBeNull();
  });

  it('reads the self check-in QR page (decision 0034)', () => {
    const patientId = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
    const appointmentId = '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
    expect(parsePatientPath(`/patients/${patientId}/appointments/${appointmentId}/patient-checkin`)).toEqual({
      kind: 'selfCheckIn',
      patientId,
      appointmentId,
      token: '',
    });
    expect(parsePatientPath(`/patients/${patientId}/appointments/${appointmentId}/other`)).toBeNull();
    expect(parsePatientPath(`/patients/${patientId}/visits/${appointmentId}/patient-checkin`)).toBeNull();
  });

  it('reads a custom form link and refuses other paths', () => {
    expect(parsePatientPath(customFormPath(token))).toEqual({ kind: 'custom', token });
    expect(parsePatientPath('/patients/list')).toBeNull();
    expect(parsePatientPath(`/patients/unknown/${token}`)).toBeNull();
    expect(parsePatientPath(`/customform/${token}/reactiveight/x`)).toBeNull();
    expect(parsePatientPath('/customform/%E0%A4%A/surveryform')).toBeNull();
  });
});

describe('close-account and consent pages (decision 0036)', () => {
  const token = 'Tk0123456789abcdefghijklmnopqrstuvwxyzABCDE';
  const patientId = '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f';
  it('reads the emailed close-account page and the two consent pages', () => {
    expect(parsePatientPath(`/patients/CloseAccount/${patientId}/${token}`)).toEqual({
      kind: 'closeAccount',
      patientId,
      closeToken: token,
      token: '',
    });
    expect(parsePatientPath(`/patients/digitalconsentform/${token}`)).toEqual({
      kind: 'consent',
      purpose: 'digitalConsent',
      token,
    });
    expect(parsePatientPath(`/patients/resignconsent/${token}/`)).toEqual({ kind: 'consent', purpose: 'resign', token });
    expect(parsePatientPath(`/patients/closeaccount/${patientId}`)).toBeNull();
    expect(parsePatientPath(`/patients/resignconsent/${token}/extra`)).toBeNull();
  });
});

describe('date of birth entry', () => {
  it('adds the slashes a numeric keypad cannot type', () => {
    expect(formatDateOfBirth('0427')).toBe('04/27');
    expect(formatDateOfBirth('04271980')).toBe('04/27/1980');
    expect(formatDateOfBirth('04/')).toBe('04/');
    expect(normalizeDateOfBirth('4/7/1980')).toBe('04/07/1980');
  });
});

type Tree = { [key: string]: string | Tree };
const leafKeys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );

describe('patient texts', () => {
  it('has the same keys in English and Spanish', () => {
    expect(leafKeys(esPatient).sort()).toEqual(leafKeys(enPatient).sort());
  });
});
