import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import './crisis-resources.css';

/**
 * Shown right after a patient submits a response with a critical answer (PHQ-9 item 9 above 0,
 * decision 0058), before anything else. The resources are the 988 Suicide & Crisis Lifeline's own
 * (SAMHSA, 988lifeline.org): call or text 988, chat at 988lifeline.org, Spanish by pressing 2 when
 * calling or texting AYUDA to 988; and 911 for immediate danger. It does not say which answer led here.
 */
export function CrisisResources({ onContinue, continueLabel }: { onContinue?: () => void; continueLabel?: string }) {
  const { t } = useTranslation('patient');
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <section className="pw-crisis" aria-labelledby={titleId} data-testid="crisis-resources">
      <h2 id={titleId} tabIndex={-1} ref={headingRef}>
        {t('crisis.title')}
      </h2>
      <p>{t('crisis.body')}</p>
      <p>
        <strong>{t('crisis.lifeline')}</strong> {t('crisis.lifelineHours')}
      </p>
      <p>{t('crisis.callOrText')}</p>
      <div className="pw-crisis-actions">
        <a className="pw-button pw-button-primary" href="tel:988" data-testid="crisis-call">
          {t('crisis.call')}
        </a>
        <a className="pw-button pw-button-secondary" href="sms:988" data-testid="crisis-text">
          {t('crisis.text')}
        </a>
        <a
          className="pw-button pw-button-secondary"
          href="https://988lifeline.org"
          target="_blank"
          rel="noopener noreferrer"
          data-testid="crisis-chat"
        >
          {t('crisis.chat')}
        </a>
      </div>
      <p>{t('crisis.spanish')}</p>
      <p className="pw-crisis-danger">
        {t('crisis.dangerBefore')}{' '}
        <a href="tel:911" data-testid="crisis-911">
          {t('crisis.danger911')}
        </a>
      </p>
      {onContinue ? (
        <div className="pw-nav">
          <button type="button" className="pw-button pw-button-secondary" onClick={onContinue} data-testid="crisis-continue">
            {continueLabel ?? t('crisis.continue')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
