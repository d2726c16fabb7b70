import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettingsValues,
  fileKeys,
  integrationGroups,
  secretKeys,
  settingKeys,
  type InstanceFile,
  type InstanceSettingsView,
} from '@pathwell/contracts/instance-settings';
import { Component } from '../../routes/admin/instance-settings';
import { i18n } from '../../lib/i18n';
import { storageKeys } from '../../lib/session-storage';
import { fakeApi, ids, makeSession, type FakeRoute } from '../../test/fake-api';
import { renderApp, renderAt } from '../../test/render';

const logo: InstanceFile = {
  fileName: 'riverside.png',
  contentType: 'image/png',
  size: 20_480,
  uploadedAt: '2026-03-01T10:00:00.000Z',
  url: '/api/instancesettings/logos/33333333-3333-4333-8333-333333333333/clinicLogoPrimary?v=abc',
};

function makeView(
  options: {
    values?: Partial<InstanceSettingsView['values']>;
    setSecrets?: string[];
    files?: Partial<InstanceSettingsView['files']>;
  } = {},
): InstanceSettingsView {
  return {
    values: {
      ...defaultSettingsValues(),
      clinicName: 'Riverside Spine & Pain',
      clinicEmail: 'frontdesk@pathwell.demo',
      ...options.values,
    },
    secrets: Object.fromEntries(
      secretKeys.map((key) => [key, { isSet: options.setSecrets?.includes(key) ?? false }]),
    ) as InstanceSettingsView['secrets'],
    files: { ...(Object.fromEntries(fileKeys.map((key) => [key, null])) as InstanceSettingsView['files']), ...options.files },
  };
}

function setup(view = makeView(), extra: FakeRoute[] = []) {
  const api = fakeApi([
    ...extra,
    { path: '/api/instancesettings', body: view },
    { method: 'PUT', path: '/api/instancesettings', body: view },
    { path: '/api/session', body: makeSession({ user: { role: 'SystemManager' } }) },
  ]);
  renderAt(<Component />, { path: '/admin/instancesettings' });
  return api;
}

const saveButton = () => screen.getByTestId('instance-settings-save');

function signedInAs(role: 'SystemManager' | 'Staff') {
  localStorage.setItem(storageKeys.token, 'token-1');
  localStorage.setItem(storageKeys.userId, ids.admin);
  localStorage.setItem(storageKeys.userRole, role);
}

describe('instance settings labels', () => {
  it('names every setting and integration in English and Spanish', () => {
    for (const lng of ['en', 'es']) {
      const missing = [
        ...settingKeys.map((key) => `fields.${key}`),
        ...integrationGroups.map((group) => `integrations.${group}`),
      ].filter((key) => !i18n.exists(key, { lng, ns: 'settings', fallbackLng: false }));
      expect(missing, lng).toEqual([]);
    }
  });
});

describe('instance settings page', () => {
  // Toasts live in a global store; each test starts without the previous test's.
  beforeEach(() => notifications.clean());

  it('shows every group of the spec as a tab, starting with the clinic identity', async () => {
    setup();
    expect(await screen.findByLabelText('Clinic name')).toHaveValue('Riverside Spine & Pain');
    const names = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(names).toEqual([
      'Identity',
      'Files',
      'Feature flags',
      'Rates and defaults',
      'Extended patient questions',
      'Appointment-reason questions',
      'Demo',
      'Notification lists',
      'Terms and privacy',
      'Integrations',
    ]);
    await userEvent.click(screen.getByRole('tab', { name: 'Feature flags' }));
    expect(screen.getByRole('switch', { name: 'Send emails' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Send text messages (SMS)' })).not.toBeChecked();
  });

  it('fills the time-zone offset from the chosen time zone', async () => {
    setup(makeView({ values: { timeZoneId: 'Asia/Kolkata', timeZoneOffsetHours: 0 } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Use the current offset of Asia/Kolkata (5.5 h)' }));
    expect(screen.getByLabelText(/Time zone offset/)).toHaveValue('5.5');
    expect(saveButton()).toBeEnabled();
  });

  it("keeps an integration's fields disabled while its use-flag is off, and saves them once it is on", async () => {
    const { calls } = setup();
    await userEvent.click(await screen.findByRole('tab', { name: 'Integrations' }));
    await userEvent.click(screen.getByRole('button', { name: /Athena/ }));
    const panel = screen.getByTestId('integration-athena');
    const practice = within(panel).getByLabelText('Practice id');
    expect(practice).toBeDisabled();
    expect(within(panel).getByText('Turn on Athena to edit its settings.')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('switch', { name: 'Use Athena' }));
    expect(practice).toBeEnabled();
    await userEvent.type(practice, '195900');
    await userEvent.type(within(panel).getByTestId('setting-athenaDepartmentIds'), '12, 14{enter}');
    await userEvent.click(saveButton());
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      useAthena: true,
      athenaPracticeId: '195900',
      athenaDepartmentIds: ['12', '14'],
    });
  });

  it('saves only what changed, then refreshes the session so the page title and clinic name follow', async () => {
    signedInAs('SystemManager');
    const sessionRoute: FakeRoute = { path: '/api/session', body: makeSession({ user: { role: 'SystemManager' } }) };
    const { calls } = fakeApi([
      { path: '/api/instancesettings', body: makeView() },
      { method: 'PUT', path: '/api/instancesettings', body: makeView({ values: { clinicName: 'Riverside Spine Institute' } }) },
      sessionRoute,
      { path: '/api/users/providers', body: [] },
      { path: '/api/parent/clinics', body: [] },
    ]);
    renderApp('/admin/instancesettings');
    const name = await screen.findByLabelText('Clinic name');
    await waitFor(() => expect(document.title).toBe('Riverside Spine & Pain'));
    expect(saveButton()).toBeDisabled();
    await userEvent.clear(name);
    await userEvent.type(name, 'Riverside Spine Institute');
    sessionRoute.body = makeSession({
      user: { role: 'SystemManager' },
      instance: {
        id: ids.clinic,
        name: 'Riverside Spine Institute',
        logoUrl: null,
        timeZoneId: 'Etc/GMT+5',
        timeZoneOffsetHours: -5,
      },
    });
    await userEvent.click(saveButton());

    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('/api/instancesettings');
    expect(put.body).toEqual({ clinicName: 'Riverside Spine Institute' });
    await waitFor(() => expect(document.title).toBe('Riverside Spine Institute'));
    expect(screen.getByTestId('clinic-name')).toHaveTextContent('Riverside Spine Institute');
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
  });

  it('edits the terms and privacy texts in multi-line boxes and links the pages patients see for this clinic', async () => {
    const { calls } = setup(makeView({ values: { termsAndConditionsEn: 'Our own terms.' } }));
    await userEvent.click(await screen.findByRole('tab', { name: 'Terms and privacy' }));
    expect(screen.getByRole('textbox', { name: 'Terms and conditions (English)' })).toHaveValue('Our own terms.');
    const box = screen.getByRole('textbox', { name: 'Privacy policy (Spanish)' });
    expect(box.tagName).toBe('TEXTAREA');
    expect(screen.getAllByText(/Leave it empty to show Pathwell's default text/)).toHaveLength(6);
    await userEvent.type(box, 'Primer párrafo.{Enter}{Enter}Segundo.');
    expect(screen.getByTestId('setting-privacyPolicyEs-count')).toHaveTextContent('25 of 20,000 characters');
    await waitFor(() =>
      expect(screen.getByTestId('open-legal-privacy')).toHaveAttribute('href', `/privacypolicy?clinic=${ids.clinic}`),
    );
    expect(screen.getByTestId('open-legal-terms')).toHaveAttribute('target', '_blank');

    await userEvent.click(saveButton());
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ privacyPolicyEs: 'Primer párrafo.\n\nSegundo.' });
  });

  it('sends a Staff user to the unauthorized page', async () => {
    signedInAs('Staff');
    const { calls } = fakeApi([
      { path: '/api/session', body: makeSession({ user: { role: 'Staff' } }) },
      { path: '/api/users/providers', body: [] },
      { path: '/api/parent/clinics', body: [] },
    ]);
    renderApp('/admin/instancesettings');
    expect(await screen.findByText('Looks like you are not authorized to access this page.')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/instancesettings')).toBe(false);
  });

  it('shows a stored secret only as Set and sends a replacement', async () => {
    const { calls } = setup(makeView({ values: { useModMed: true }, setSecrets: ['modMedPassword'] }));
    await userEvent.click(await screen.findByRole('tab', { name: 'Integrations' }));
    await userEvent.click(screen.getByRole('button', { name: /ModMed/ }));
    const panel = screen.getByTestId('integration-modMed');
    expect(within(panel).getByTestId('secret-status-modMedPassword')).toHaveTextContent('Set');
    expect(within(panel).getByTestId('secret-status-modMedApiKey')).toHaveTextContent('Not set');

    await userEvent.click(within(panel).getByRole('button', { name: 'Replace: Password' }));
    await userEvent.type(within(panel).getByTestId('setting-modMedPassword'), 'N3w-pass!');
    await userEvent.click(saveButton());
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ modMedPassword: 'N3w-pass!' });
  });

  it('clears a stored secret with null', async () => {
    const { calls } = setup(makeView({ values: { useGreenway: true }, setSecrets: ['greenwayApiKey'] }));
    await userEvent.click(await screen.findByRole('tab', { name: 'Integrations' }));
    await userEvent.click(screen.getByRole('button', { name: /Greenway/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear: API key' }));
    expect(screen.getByText('Will be cleared on save')).toBeInTheDocument();
    await userEvent.click(saveButton());
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ greenwayApiKey: null });
  });

  it('refuses a bad email before sending, in the words of the spec', async () => {
    const { calls } = setup();
    const email = await screen.findByLabelText('Clinic email');
    await userEvent.clear(email);
    await userEvent.type(email, 'frontdesk.pathwell');
    await userEvent.click(saveButton());
    expect(await screen.findByText('Email not valid format')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it("opens the tab and panel of a field the server refused and shows the server's message there", async () => {
    setup(makeView(), [
      {
        method: 'PUT',
        path: '/api/instancesettings',
        status: 400,
        body: { error: 'Not valid', code: 'VALIDATION', fields: { nevroSalesforceTokenUrl: 'urlInvalid' } },
      },
    ]);
    const name = await screen.findByLabelText('Clinic name');
    await userEvent.type(name, ' II');
    await userEvent.click(saveButton());
    expect(
      await screen.findByText('Enter an http, https or ftp address that is not a private network address'),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Integrations' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('instance-settings-error')).toBeInTheDocument();
  });

  it('previews the logo and uploads a file straight away', async () => {
    const { calls } = setup(makeView({ files: { clinicLogoPrimary: logo } }), [
      { method: 'POST', path: '/api/instancesettings/files/practiceLogo', body: { ...logo, fileName: 'practice.png' } },
    ]);
    await userEvent.click(await screen.findByRole('tab', { name: 'Files' }));
    expect(screen.getByRole('img', { name: 'Preview of Primary clinic logo' })).toHaveAttribute('src', logo.url);
    expect(within(screen.getByTestId('file-newPatientAgreementEn')).getByText('No file yet.')).toBeInTheDocument();

    const slot = screen.getByTestId('file-practiceLogo');
    const input = slot.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('image/png,image/jpeg,image/svg+xml');
    await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'practice.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.path === '/api/instancesettings/files/practiceLogo')).toBe(true),
    );
    expect(await screen.findByText('Practice logo uploaded')).toBeInTheDocument();
  });
});
