import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsentDocument, ConsentLinkView } from '@pathwell/contracts/consent-links';
import type { FormLanguage, SignatureAnswer } from '@pathwell/contracts/forms';
import type { LinkStatus } from '@pathwell/contracts/patient-links';
import { consentApi, isNetworkError, PatientApiError } from './api';
import { SignaturePad } from './signature-pad';

type Props = {
  token: string;
  accessToken: string;
  initial: ConsentLinkView;
  language: FormLanguage;
  onGone: (status: Exclude<LinkStatus, 'active'>) => void;
  onSessionEnded: () => void;
};

/**
 * Consents signed on their own (/patients/digitalconsentform/{token}, /patients/resignconsent/{token};
 * decision 0036): each document in full, then a drawn signature; a signed one shows as signed. The
 * signature is sent when the patient taps Sign, so nothing is half-saved.
 */
export function ConsentLink({ token, accessToken, initial, language, onGone, onSessionEnded }: Props) {
  const { t } = useTranslation('patient');
  const [view, setView] = useState(initial);
  const done = view.documents.every((document) => document.signed);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (done) headingRef.current?.focus();
  }, [done]);

  if (done) {
    return (
      <section className="pw-card pw-message" data-testid="consent-done">
        <h2 className="pw-question-title" tabIndex={-1} ref={headingRef}>
          {t('consent.done.title')}
        </h2>
        <p>{t('consent.done.body', { clinic: view.clinicName })}</p>
        <ul className="pw-list">
          {view.documents.map((document) => (
            <li key={document.kind}>{document.title[language] ?? document.title.en}</li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <div className="pw-intake">
      <p className="pw-greeting">{t('form.greeting', { name: view.patientFirstName })}</p>
      <p>{t('consent.intro', { clinic: view.clinicName })}</p>
      {view.documents.map((document) => (
        <ConsentToSign
          key={document.kind}
          token={token}
          accessToken={accessToken}
          document={document}
          language={language}
          onSigned={() =>
            setView((current) => ({
              ...current,
              documents: current.documents.map((item) => (item.kind === document.kind ? { ...item, signed: true } : item)),
            }))
          }
          onGone={onGone}
          onSessionEnded={onSessionEnded}
        />
      ))}
    </div>
  );
}

function ConsentToSign({
  token,
  accessToken,
  document,
  language,
  onSigned,
  onGone,
  onSessionEnded,
}: {
  token: string;
  accessToken: string;
  document: ConsentDocument;
  language: FormLanguage;
  onSigned: () => void;
  onGone: Props['onGone'];
  onSessionEnded: () => void;
}) {
  const { t } = useTranslation('patient');
  const [signature, setSignature] = useState<SignatureAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { title: useId(), sign: useId() };
  const title = document.title[language] ?? document.title.en;

  const sign = async () => {
    if (!signature) return setError(t('consent.signFirst'));
    setBusy(true);
    setError(null);
    try {
      await consentApi.sign(token, accessToken, { kind: document.kind, signature, language });
      onSigned();
    } catch (failure) {
      if (failure instanceof PatientApiError) {
        if (failure.goneStatus) return onGone(failure.goneStatus);
        if (failure.status === 401) return onSessionEnded();
        if (failure.status === 400) return setError(t('consent.signAgain'));
      }
      setError(isNetworkError(failure) ? t('problem.body') : t('review.failed'));
    } finally {
      setBusy(false);
    }
  };

  const openPdf = async () => {
    try {
      const blob = await consentApi.agreement(token, accessToken, language);
      window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    } catch {
      setError(t('consent.pdfFailed'));
    }
  };

  return (
    <section className="pw-card pw-intake-section" aria-labelledby={ids.title} data-testid={`consent-${document.kind}`}>
      <h2 id={ids.title} className="pw-section-title">
        {title}
      </h2>
      <div className="pw-agreement" tabIndex={0} aria-label={title}>
        {(document.text[language] ?? document.text.en).split('\n\n').map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
      {document.fileUrl && (
        <p>
          <button type="button" className="pw-button-link" onClick={() => void openPdf()}>
            {t('consent.openPdf')}
          </button>
        </p>
      )}
      {document.signed ? (
        <p className="pw-notice" role="status">
          {t('consent.signed')}
        </p>
      ) : (
        <>
          <p className="pw-hint" id={ids.sign}>
            {t('consent.signBelow')}
          </p>
          <SignaturePad
            value={signature}
            onChange={(next) => {
              setSignature(next);
              if (next) setError(null);
            }}
            labelledBy={ids.sign}
            invalid={Boolean(error && !signature)}
          />
          {error && (
            <p className="pw-error" role="alert">
              {error}
            </p>
          )}
          <div className="pw-nav">
            <button
              type="button"
              className="pw-button pw-button-primary"
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => void sign()}
            >
              {busy ? t('consent.signing') : t('consent.sign')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
