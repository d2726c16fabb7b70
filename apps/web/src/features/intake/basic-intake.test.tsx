import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SessionReactContext } from '../../app/session-context';
import { i18n } from '../../lib/i18n';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { BasicIntake, sendStatusText } from './basic-intake';

/** Issue #24 §5: where staff send the intake link, a text that did not go says why, in words. */
describe('basic intake: what became of the send', () => {
  it('says why a text or email was not sent, in English and Spanish', () => {
    const en = i18n.getFixedT('en', 'intakeStaff');
    expect(sendStatusText(en, { channel: 'sms', status: 'suppressed', reason: 'clinicSmsOff' })).toBe(
      'Not sent: Texts are off for this clinic',
    );
    expect(sendStatusText(en, { channel: 'sms', status: 'suppressed', reason: 'optedOut' })).toBe(
      'Not sent: The patient texted STOP',
    );
    expect(sendStatusText(en, { channel: 'email', status: 'notSent', reason: 'noAddress' })).toBe(
      'Not sent: there is no address for it on file',
    );
    expect(sendStatusText(en, { channel: 'email', status: 'queued', reason: null })).toBe('Queued');
    const es = i18n.getFixedT('es', 'intakeStaff');
    expect(sendStatusText(es, { channel: 'sms', status: 'suppressed', reason: 'patientTextOff' })).toBe(
      'No enviado: El paciente no quiere mensajes de texto',
    );
  });

  it(
    'ticks "Send by text message" when a mobile number is typed, until staff choose themselves',
    { timeout: 30_000 },
    async () => {
      fakeApi([]);
      renderAt(
        <SessionReactContext.Provider value={makeSession()}>
          <BasicIntake />
        </SessionReactContext.Provider>,
        { path: '/patients/basicintake', initialPath: '/patients/basicintake' },
      );
      const user = userEvent.setup();
      const sms = await screen.findByRole('checkbox', { name: 'Send by text message' });
      expect(sms).not.toBeChecked();
      // Pasted, not typed key by key: the whole page re-renders on each key (slow on a busy machine).
      await user.click(screen.getByLabelText('Mobile phone'));
      await user.paste('(512) 555-0160');
      await waitFor(() => expect(sms).toBeChecked());
      await user.click(sms);
      expect(sms).not.toBeChecked();
      // Staff unticked it: another number does not tick it again.
      await user.clear(screen.getByLabelText('Mobile phone'));
      await user.paste('(512) 555-0161');
      expect(sms).not.toBeChecked();
    },
  );
});
