import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { defaultLegalTexts, type LegalText } from '@pathwell/contracts/legal-texts';
import { Component as PrivacyPage } from '../../routes/legal/privacy';
import { Component as TermsPage } from '../../routes/legal/terms';
import { fakeApi, ids, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';

const clinicTerms: LegalText = {
  page: 'terms',
  clinicName: 'Riverside Spine & Pain',
  text: {
    en: 'Riverside terms apply.\n\nCall the front desk:\n512-555-0100 on weekdays.',
    es: 'Se aplican los términos de Riverside.\n\nLlame a recepción.',
  },
  isDefault: { en: false, es: false },
};

const standard = (page: 'terms' | 'privacy'): LegalText => ({
  page,
  clinicName: null,
  text: defaultLegalTexts[page],
  isDefault: { en: true, es: true },
});

function open(page: 'terms' | 'privacy', search: string, route: Omit<FakeRoute, 'path'>) {
  const api = fakeApi([{ path: `/api/public/legal/${page}`, ...route }]);
  const path = page === 'terms' ? '/termsandconditions' : '/privacypolicy';
  renderAt(page === 'terms' ? <TermsPage /> : <PrivacyPage />, { path, initialPath: `${path}${search}` });
  return api;
}

const paragraphs = () =>
  within(screen.getByTestId('legal-text'))
    .getAllByText(/./)
    .map((node) => node.textContent);

describe('/termsandconditions and /privacypolicy', () => {
  it("shows the clinic's own terms, one paragraph per blank line, under its name", async () => {
    const { calls } = open('terms', `?clinic=${ids.clinic}`, { body: clinicTerms });
    expect(screen.getByTestId('legal-loading')).toBeInTheDocument();
    expect(await screen.findByTestId('legal-text')).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms and conditions' })).toBeInTheDocument();
    expect(screen.getByText('Riverside Spine & Pain')).toBeInTheDocument();
    expect(paragraphs()).toEqual(['Riverside terms apply.', 'Call the front desk:\n512-555-0100 on weekdays.']);
    expect(screen.queryByTestId('legal-standard')).not.toBeInTheDocument();
    expect(calls[0]!.query.get('clinic')).toBe(ids.clinic);
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', `/privacypolicy?clinic=${ids.clinic}`);
    expect(document.title).toBe('Terms and conditions · Pathwell');
  });

  it("shows Pathwell's standard privacy policy when the link names no clinic, saying so", async () => {
    const { calls } = open('privacy', '', { body: standard('privacy') });
    await screen.findByTestId('legal-text');
    expect(calls[0]!.query.has('clinic')).toBe(false);
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    expect(
      screen.getByText(/Pathwell does not ask for, and does not use your information for, advertising or marketing consent\./),
    ).toBeInTheDocument();
    expect(screen.getByTestId('legal-standard')).toHaveTextContent(
      "This is Pathwell's standard text, which applies unless your clinic publishes its own.",
    );
    expect(screen.getByRole('link', { name: 'Terms and conditions' })).toHaveAttribute('href', '/termsandconditions');
  });

  it('switches the page and the text to Spanish', async () => {
    open('terms', `?clinic=${ids.clinic}`, { body: clinicTerms });
    await screen.findByTestId('legal-text');
    await userEvent.click(screen.getByRole('radio', { name: 'Español' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Términos y condiciones' })).toBeInTheDocument();
    expect(screen.getByTestId('legal-text')).toHaveAttribute('lang', 'es');
    expect(paragraphs()).toEqual(['Se aplican los términos de Riverside.', 'Llame a recepción.']);
    expect(screen.getByRole('link', { name: 'Política de privacidad' })).toBeInTheDocument();
  });

  it('opens in Spanish when the link from a Spanish patient page asks for it', async () => {
    open('privacy', '?lang=es', { body: standard('privacy') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Política de privacidad' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        /Pathwell no le pide consentimiento para publicidad ni marketing, y no usa su información con ese fin\./,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Español' })).toBeChecked();
  });

  it("keeps a clinic's English-only text in English for a Spanish reader, and tells them why", async () => {
    open('terms', `?clinic=${ids.clinic}&lang=es`, {
      body: {
        ...clinicTerms,
        text: { en: clinicTerms.text.en, es: defaultLegalTexts.terms.es },
        isDefault: { en: false, es: true },
      },
    });
    expect(await screen.findByTestId('legal-only-in')).toHaveTextContent('Esta clínica ha escrito este texto solo en inglés.');
    expect(screen.getByTestId('legal-text')).toHaveAttribute('lang', 'en');
    expect(paragraphs()[0]).toBe('Riverside terms apply.');
  });

  it('says the clinic was not found when its link is wrong', async () => {
    open('privacy', '?clinic=not-a-clinic', {
      status: 400,
      body: { error: 'Invalid input', code: 'VALIDATION', messageKey: 'requestInvalid', fields: { clinic: 'idInvalid' } },
    });
    expect(await screen.findByTestId('legal-error')).toHaveTextContent(
      'We could not find this clinic. Check the link you were given, or ask the clinic for it.',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('shows why the text could not load and loads it again on request', async () => {
    const route: FakeRoute = { path: '/api/public/legal/terms', networkError: true };
    fakeApi([route]);
    renderAt(<TermsPage />, { path: '/termsandconditions' });
    expect(await screen.findByTestId('legal-error')).toHaveTextContent(
      'There is a problem with the API. Please contact System Administrator.',
    );
    route.networkError = false;
    route.body = standard('terms');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('legal-text')).toBeInTheDocument();
    expect(screen.queryByTestId('legal-error')).not.toBeInTheDocument();
    expect(screen.getByText(/call 911 in the United States, 112 in Spain and the European Union/)).toBeInTheDocument();
  });
});
