import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntakeView, Paperwork } from '@pathwell/contracts/intake';
import type { IntakeOnFile } from '@pathwell/contracts/intake-record';
import { patientI18n } from './i18n';
import { PaperworkStep } from './intake-steps';
import { TOKEN } from './test-helpers';

/** Issue #24 §4: the paperwork starts from what the clinic has on file, for the patient to confirm or correct. */

const ON_FILE: IntakeOnFile = {
  email: 'ana.ortega@example.test',
  streetAddress1: '12 Elm St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  preferredLanguage: 'en',
  phones: [{ type: 'MOBILE', number: '(512) 555-0161' }],
  contacts: [{ role: 'emergency', name: 'Luis Ortega', phone: '(512) 555-0162' }],
  primaryInsurance: { payer: 'Blue Cross', memberId: 'XJ123' },
};

function viewOf(onFile: IntakeOnFile | null, paperwork: Paperwork | null = null) {
  return {
    patientFirstName: 'Ana',
    clinicName: 'Riverside Spine & Pain',
    appointment: {
      id: '6b2f7c1e-2a4d-4b8e-9f00-1234567890ab',
      startsAt: '',
      startsAtText: '',
      doctorName: null,
      newPatient: true,
    },
    steps: [{ step: 1, done: false }],
    ownDone: [],
    forms: [],
    saved: { paperwork, history: null, vas: null, bodymap: null, payment: null },
    previousBodyMap: null,
    agreement: null,
    options: {
      welcomeScreen: false,
      hideExitPro: false,
      checkinConfirmation: false,
      pharmacyRequired: false,
      contactOptIn: false,
      ask: { sexualOrientation: false, sexAssignedAtBirth: false, pronouns: false, communicationPreferences: false },
    },
    amountDueCents: null,
    contactChoice: null,
    completedAt: null,
    checkIn: { offered: false, checkedIn: false, fromHome: false },
    insuranceCards: [],
    onFile,
  } as unknown as IntakeView;
}

const renderStep = (view: IntakeView, language: 'en' | 'es' = 'en') => {
  void patientI18n.changeLanguage(language);
  return render(
    <I18nextProvider i18n={patientI18n}>
      <PaperworkStep
        token={TOKEN}
        accessToken="access"
        view={view}
        language={language}
        onFinished={vi.fn()}
        onGone={vi.fn()}
        onSessionEnded={vi.fn()}
      />
    </I18nextProvider>,
  );
};

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ done: false, completed: false }), { status: 200 })),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the paperwork step', () => {
  it('shows what is on file, filled in, and says so', async () => {
    renderStep(viewOf(ON_FILE));
    expect(screen.getByTestId('paperwork-on-file')).toHaveTextContent('what we have on file');
    expect(screen.getByLabelText('Email')).toHaveValue('ana.ortega@example.test');
    expect(screen.getByLabelText(/Street address/)).toHaveValue('12 Elm St');
    expect(screen.getByLabelText(/Mobile phone/)).toHaveValue('(512) 555-0161');
    expect(screen.getByLabelText(/Insurance company/)).toHaveValue('Blue Cross');
  });

  it('in Spanish too; the patient’s own draft wins over the record', () => {
    const { unmount } = renderStep(viewOf(ON_FILE), 'es');
    expect(screen.getByTestId('paperwork-on-file')).toHaveTextContent('registros');
    unmount();
    localStorage.clear();
    renderStep(viewOf(ON_FILE, { email: 'ana.new@example.test' }), 'en');
    expect(screen.queryByTestId('paperwork-on-file')).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('ana.new@example.test');
  });

  it('starts blank when the clinic has nothing on file', () => {
    renderStep(viewOf(null));
    expect(screen.queryByTestId('paperwork-on-file')).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });
});
