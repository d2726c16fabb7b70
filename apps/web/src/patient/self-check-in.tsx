import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelfCheckInState } from '@pathwell/contracts/intake';
import { PatientApiError, selfCheckInApi } from './api';
import { IdentityStep } from './identity-step';
import { linkStorage } from './storage';

type View =
  | { name: 'loading' | 'notFound' | 'problem' | 'identity' | 'checkedIn' | 'notToday' | 'frontDesk' }
  | { name: 'continue'; path: string }
  | { name: 'locked'; minutes: number };

type Props = {
  patientId: string;
  appointmentId: string;
  onClinicName: (name: string) => void;
};

/**
 * Self check-in at the clinic (/patients/{patientId}/appointments/{appointmentId}/patient-checkin):
 * the patient scans the QR code staff printed or showed for the visit, confirms last name and date of
 * birth, and is checked in (decision 0034).
 */
export function SelfCheckIn({ patientId, appointmentId, onClinicName }: Props) {
  const { t } = useTranslation('patient');
  const [view, setView] = useState<View>({ name: 'loading' });
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    setView({ name: 'loading' });
    try {
      const state: SelfCheckInState = await selfCheckInApi.state(patientId, appointmentId);
      onClinicName(state.clinicName);
      if (state.state === 'ready') return setView({ name: 'identity' });
      if (state.state === 'locked') return setView({ name: 'locked', minutes: state.lockedMinutes ?? 15 });
      setView({ name: state.state });
    } catch (failure) {
      if (failure instanceof PatientApiError && (failure.status === 404 || failure.status === 400)) {
        return setView({ name: 'notFound' });
      }
      setView({ name: 'problem' });
    }
  }, [appointmentId, onClinicName, patientId]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (view.name !== 'identity' && view.name !== 'loading') headingRef.current?.focus();
  }, [view.name]);

  const message = (key: 'notFound' | 'problem' | 'checkedIn' | 'notToday' | 'frontDesk' | 'locked', minutes?: number) => (
    <section className="pw-card pw-message" data-testid={`self-checkin-${key}`} role={key === 'problem' ? 'alert' : undefined}>
      <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
        {t(`selfCheckIn.${key}.title`)}
      </h2>
      <p>{t(`selfCheckIn.${key}.body`, { minutes })}</p>
      {key === 'problem' && (
        <button type="button" className="pw-button pw-button-primary" onClick={() => void load()}>
          {t('problem.retry')}
        </button>
      )}
    </section>
  );

  switch (view.name) {
    case 'loading':
      return (
        <p className="pw-hint" role="status">
          {t('loading')}
        </p>
      );
    case 'identity':
      return (
        <IdentityStep
          notice={null}
          texts={{ title: t('selfCheckIn.identityTitle'), intro: t('selfCheckIn.intro'), submit: t('selfCheckIn.submit') }}
          onGone={() => setView({ name: 'locked', minutes: 15 })}
          check={async (identity) => {
            try {
              const result = await selfCheckInApi.checkIn(patientId, appointmentId, identity);
              const next = result.continueIntake;
              if (!next) return setView({ name: 'checkedIn' });
              // The intake page finds this access token and opens without asking again.
              linkStorage.setAccessToken(next.token, next.accessToken);
              setView({ name: 'continue', path: `/patients/intake/${next.token}/${next.appointmentId}` });
            } catch (failure) {
              // Wrong answers, a lock and a lost connection are shown on the form itself.
              if (!(failure instanceof PatientApiError)) throw failure;
              if (failure.status === 409) {
                return setView({ name: failure.body.messageKey === 'checkinNotToday' ? 'notToday' : 'frontDesk' });
              }
              if (failure.status === 404) return setView({ name: 'notFound' });
              throw failure;
            }
          }}
        />
      );
    case 'locked':
      return message('locked', view.minutes);
    case 'continue':
      return (
        <section className="pw-card pw-message" data-testid="self-checkin-continue">
          <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
            {t('selfCheckIn.checkedIn.title')}
          </h2>
          <p>{t('selfCheckIn.continue.body')}</p>
          <div className="pw-nav">
            <a className="pw-button pw-button-primary" href={view.path}>
              {t('selfCheckIn.continue.button')}
            </a>
          </div>
        </section>
      );
    case 'checkedIn':
    case 'frontDesk':
    case 'notFound':
    case 'notToday':
    case 'problem':
      return message(view.name);
  }
}
