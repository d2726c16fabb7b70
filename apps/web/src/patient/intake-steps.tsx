import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignatureAnswer } from '@pathwell/contracts/forms';
import {
  healthHistorySchema,
  paperworkSchema,
  vasKeys,
  vasScoresSchema,
  type HealthHistory,
  type IntakeView,
  type Paperwork,
  type VasScores,
} from '@pathwell/contracts/intake';
import { bodyMapProblems, type BodyMap } from '@pathwell/contracts/body-map';
import type { IntakeOnFile } from '@pathwell/contracts/intake-record';
import { maxLengthAt } from '@pathwell/contracts/schema-limits';
import { intakeApi } from './api';
import { BodyMapInput } from './body-map';
import { hasSecondaryInsurance } from './insurance-text';
import { PainScale } from './pain-scale';

// Only the paperwork step takes card photos: the camera code loads when it is shown.
const InsuranceCardPhotos = lazy(() =>
  import('./insurance-card-photos').then((module) => ({ default: module.InsuranceCardPhotos })),
);
import { SignaturePad } from './signature-pad';
import { useStepDraft, type FieldErrors, type SaveState } from './intake-draft';

export interface StepProps {
  token: string;
  accessToken: string;
  view: IntakeView;
  language: 'en' | 'es';
  onFinished: () => void;
  onGone: (status: 'completed' | 'expired' | 'revoked' | 'locked') => void;
  onSessionEnded: () => void;
}

/** Server paths are 'data.zip' for a malformed field and 'zip' for a missing one: both mean 'zip'. */
const errorOf = (errors: FieldErrors, path: string) => errors[path] ?? errors[`data.${path}`];

function SaveNotice({ state }: { state: SaveState }) {
  const { t } = useTranslation('patient');
  if (state === 'idle') return null;
  return (
    <p className="pw-save-state" role="status" aria-live="polite">
      {state === 'saving' ? t('form.saving') : state === 'saved' ? t('form.saved') : t('form.offline')}
    </p>
  );
}

function TextField({
  label,
  value,
  onChange,
  error,
  required,
  type = 'text',
  autoComplete,
  inputMode,
  hint,
  maxLength,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  error?: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
  hint?: string;
  /** The contract's limit (`maxLengthAt`), so the page stops where the server would refuse. */
  maxLength: number | undefined;
}) {
  const { t } = useTranslation(['intake', 'validation']);
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="pw-field">
      <label htmlFor={id}>
        {label}
        {required ? ` (${t('intake:required')})` : ''}
      </label>
      {hint && (
        <p className="pw-hint" id={hintId}>
          {hint}
        </p>
      )}
      <input
        id={id}
        className="pw-input"
        type={type}
        value={value ?? ''}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p className="pw-error" id={errorId}>
          {t(`validation:${error}`)}
        </p>
      )}
    </div>
  );
}

type Insurance = NonNullable<Paperwork['primaryInsurance']>;

/** Payer, member id, group, subscriber and relationship: the same fields for the primary and the second insurance. */
function InsuranceFields({
  which,
  value,
  onChange,
  errorOf,
  required,
}: {
  which: 'primary' | 'secondary';
  value: Insurance;
  onChange: (patch: Partial<Insurance>) => void;
  errorOf: (field: keyof Insurance) => string | undefined;
  required: boolean;
}) {
  const { t } = useTranslation('intake');
  const relationshipId = `pw-insured-relationship-${which}`;
  return (
    <>
      <TextField
        label={t('paperwork.payer')}
        value={value.payer}
        maxLength={maxLengthAt(paperworkSchema, 'primaryInsurance.payer')}
        onChange={(payer) => onChange({ payer })}
        error={errorOf('payer')}
        required={required}
      />
      <TextField
        label={t('paperwork.memberId')}
        value={value.memberId}
        maxLength={maxLengthAt(paperworkSchema, 'primaryInsurance.memberId')}
        onChange={(memberId) => onChange({ memberId })}
        error={errorOf('memberId')}
        required={required}
      />
      <TextField
        label={t('paperwork.group')}
        value={value.groupNumber}
        maxLength={maxLengthAt(paperworkSchema, 'primaryInsurance.groupNumber')}
        onChange={(groupNumber) => onChange({ groupNumber })}
      />
      <TextField
        label={t('paperwork.subscriber')}
        value={value.subscriberName}
        maxLength={maxLengthAt(paperworkSchema, 'primaryInsurance.subscriberName')}
        onChange={(subscriberName) => onChange({ subscriberName })}
      />
      <div className="pw-field">
        <label htmlFor={relationshipId}>{t('paperwork.relationshipToInsured')}</label>
        <select
          id={relationshipId}
          className="pw-input"
          value={value.relationshipToInsured ?? ''}
          onChange={(event) =>
            onChange({ relationshipToInsured: (event.target.value || undefined) as Insurance['relationshipToInsured'] })
          }
        >
          <option value="">{t('choose')}</option>
          {(['self', 'spouse', 'child', 'other'] as const).map((relation) => (
            <option key={relation} value={relation}>
              {t(`paperwork.relation.${relation}`)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="pw-card pw-intake-section">
      <legend className="pw-section-title">{title}</legend>
      {children}
    </fieldset>
  );
}

function FinishButton({ busy, label, onClick }: { busy: boolean; label: string; onClick: () => void }) {
  const { t } = useTranslation('intake');
  return (
    <div className="pw-nav">
      <button type="button" className="pw-button pw-button-primary" disabled={busy} onClick={onClick}>
        {busy ? t('saving') : label}
      </button>
    </div>
  );
}

function ErrorSummary({ errors }: { errors: FieldErrors }) {
  const { t } = useTranslation('intake');
  if (Object.keys(errors).length === 0) return null;
  return (
    <p className="pw-error" role="alert" tabIndex={-1} data-error-summary="">
      {t('fixErrors')}
    </p>
  );
}

// ---- 1. new-patient paperwork ----------------------------------------------------------------------

/**
 * After a refused save, focus goes to the first field that needs attention (the summary when no field
 * is marked): on a long page the patient is at the bottom, by the button, far from the errors.
 */
function useFocusFirstError() {
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0) return;
    const form = formRef.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('[data-error-summary]');
    target?.focus();
  }, [refusals]);
  return { formRef, refused: () => setRefusals((count) => count + 1) };
}

export function PaperworkStep(props: StepProps) {
  const { t } = useTranslation('intake');
  const { view, language } = props;
  const onFile = (view as IntakeView & { onFile?: IntakeOnFile | null }).onFile ?? null;
  const [prefilled] = useState(
    () =>
      view.saved.paperwork === null &&
      Boolean(
        onFile?.email || onFile?.streetAddress1 || onFile?.phones?.length || onFile?.contacts?.length || onFile?.primaryInsurance,
      ),
  );
  const draft = useStepDraft<Paperwork>({
    token: props.token,
    accessToken: props.accessToken,
    slug: 'paperwork',
    language,
    saved: view.saved.paperwork,
    // What the clinic has on file (sent only past the identity check), to confirm or correct (issue #24 §4).
    initial: { phones: [], contacts: [], ...onFile, preferredLanguage: language },
    onGone: props.onGone,
    onSessionEnded: props.onSessionEnded,
  });
  const data = draft.data;
  const set = (patch: Partial<Paperwork>) => draft.update({ ...data, ...patch });
  const phone = (type: 'MOBILE' | 'HOME') => data.phones?.find((entry) => entry.type === type)?.number ?? '';
  const setPhone = (type: 'MOBILE' | 'HOME', number: string) =>
    set({ phones: [...(data.phones ?? []).filter((entry) => entry.type !== type), ...(number ? [{ type, number }] : [])] });
  const emergency = data.contacts?.find((contact) => contact.role === 'emergency') ?? { role: 'emergency' as const, name: '' };
  const setEmergency = (patch: Partial<typeof emergency>) =>
    set({ contacts: [...(data.contacts ?? []).filter((contact) => contact.role !== 'emergency'), { ...emergency, ...patch }] });
  const insurance = data.primaryInsurance ?? {};
  const [secondaryOpen, setSecondaryOpen] = useState(() => hasSecondaryInsurance(data));
  const setInsurance = (patch: Partial<typeof insurance>) => set({ primaryInsurance: { ...insurance, ...patch } });
  const e = (path: string) => errorOf(draft.errors, path);
  const signatureLabel = useId();
  const agreement = view.agreement;
  const [pdfProblem, setPdfProblem] = useState(false);
  const errorFocus = useFocusFirstError();

  const openAgreement = async () => {
    setPdfProblem(false);
    try {
      const blob = await intakeApi.agreement(props.token, props.accessToken, language);
      window.open(URL.createObjectURL(blob), '_blank', 'noopener');
    } catch {
      setPdfProblem(true);
    }
  };

  return (
    <form
      ref={errorFocus.formRef}
      className="pw-intake-step"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void draft.finish().then((ok) => (ok ? props.onFinished() : errorFocus.refused()));
      }}
    >
      {prefilled ? (
        <p className="pw-hint" data-testid="paperwork-on-file">
          {t('paperwork.onFile')}
        </p>
      ) : null}
      <Section title={t('paperwork.contact')}>
        <TextField
          label={t('paperwork.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={data.email}
          maxLength={maxLengthAt(paperworkSchema, 'email')}
          onChange={(email) => set({ email })}
          error={e('email')}
        />
        <TextField
          label={t('paperwork.mobile')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone('MOBILE')}
          maxLength={maxLengthAt(paperworkSchema, 'phones.number')}
          onChange={(value) => setPhone('MOBILE', value)}
          error={e('phones') ?? e('phones.0.number')}
          required
          hint={t('paperwork.phoneHint')}
        />
        <TextField
          label={t('paperwork.homePhone')}
          type="tel"
          inputMode="tel"
          value={phone('HOME')}
          maxLength={maxLengthAt(paperworkSchema, 'phones.number')}
          onChange={(value) => setPhone('HOME', value)}
          error={e('phones.1.number')}
        />
        <TextField
          label={t('paperwork.street')}
          autoComplete="address-line1"
          value={data.streetAddress1}
          maxLength={maxLengthAt(paperworkSchema, 'streetAddress1')}
          onChange={(streetAddress1) => set({ streetAddress1 })}
          error={e('streetAddress1')}
          required
        />
        <TextField
          label={t('paperwork.street2')}
          autoComplete="address-line2"
          value={data.streetAddress2}
          maxLength={maxLengthAt(paperworkSchema, 'streetAddress2')}
          onChange={(streetAddress2) => set({ streetAddress2 })}
          error={e('streetAddress2')}
        />
        <TextField
          label={t('paperwork.city')}
          autoComplete="address-level2"
          value={data.city}
          maxLength={maxLengthAt(paperworkSchema, 'city')}
          onChange={(city) => set({ city })}
          error={e('city')}
          required
        />
        <TextField
          label={t('paperwork.state')}
          autoComplete="address-level1"
          value={data.state}
          maxLength={maxLengthAt(paperworkSchema, 'state')}
          onChange={(state) => set({ state: state.toUpperCase().slice(0, 2) })}
          error={e('state')}
          required
          hint={t('paperwork.stateHint')}
        />
        <TextField
          label={t('paperwork.zip')}
          inputMode="numeric"
          autoComplete="postal-code"
          value={data.zip}
          maxLength={maxLengthAt(paperworkSchema, 'zip')}
          onChange={(zip) => set({ zip })}
          error={e('zip')}
          required
        />
        <div className="pw-field">
          <label htmlFor="pw-preferred-language">{t('paperwork.language')}</label>
          <select
            id="pw-preferred-language"
            className="pw-input"
            value={data.preferredLanguage ?? language}
            onChange={(event) => set({ preferredLanguage: event.target.value as 'en' | 'es' })}
          >
            <option value="en">English</option>
            <option value="es">Español</option>
          </select>
        </div>
      </Section>

      <Section title={t('paperwork.emergency')}>
        <TextField
          label={t('paperwork.contactName')}
          value={emergency.name}
          maxLength={maxLengthAt(paperworkSchema, 'contacts.name')}
          onChange={(name) => setEmergency({ name })}
          error={e('contacts.emergency.name')}
          required
        />
        <TextField
          label={t('paperwork.relationship')}
          value={emergency.relationship}
          maxLength={maxLengthAt(paperworkSchema, 'contacts.relationship')}
          onChange={(relationship) => setEmergency({ relationship })}
        />
        <TextField
          label={t('paperwork.contactPhone')}
          type="tel"
          inputMode="tel"
          value={emergency.phone}
          maxLength={maxLengthAt(paperworkSchema, 'contacts.phone')}
          onChange={(value) => setEmergency({ phone: value })}
          error={e('contacts.emergency.phone')}
          required
        />
      </Section>

      <Section title={t('paperwork.insurance')}>
        <label className="pw-choice">
          <input type="checkbox" checked={Boolean(data.selfPay)} onChange={(event) => set({ selfPay: event.target.checked })} />
          <span>{t('paperwork.selfPay')}</span>
        </label>
        {!data.selfPay && (
          <>
            <InsuranceFields
              which="primary"
              value={insurance}
              onChange={setInsurance}
              errorOf={(field) => e(`primaryInsurance.${field}`)}
              required
            />
            <label className="pw-choice">
              <input
                type="checkbox"
                checked={secondaryOpen}
                onChange={(event) => {
                  setSecondaryOpen(event.target.checked);
                  if (!event.target.checked) set({ secondaryInsurance: undefined });
                }}
              />
              <span>{t('paperwork.hasSecondary')}</span>
            </label>
            {secondaryOpen && (
              <fieldset className="pw-intake-subsection">
                <legend className="pw-subsection-title">{t('paperwork.secondary')}</legend>
                <InsuranceFields
                  which="secondary"
                  value={data.secondaryInsurance ?? {}}
                  onChange={(patch) => set({ secondaryInsurance: { ...data.secondaryInsurance, ...patch } })}
                  errorOf={(field) => e(`secondaryInsurance.${field}`)}
                  required={false}
                />
              </fieldset>
            )}
            <Suspense fallback={null}>
              <InsuranceCardPhotos
                token={props.token}
                accessToken={props.accessToken}
                saved={view.insuranceCards}
                secondary={secondaryOpen && hasSecondaryInsurance(data)}
                onGone={props.onGone}
                onSessionEnded={props.onSessionEnded}
              />
            </Suspense>
          </>
        )}
      </Section>

      <Section title={t('paperwork.pharmacy')}>
        <TextField
          label={t('paperwork.pharmacyName')}
          value={data.pharmacy?.name}
          maxLength={maxLengthAt(paperworkSchema, 'pharmacy.name')}
          onChange={(name) => set({ pharmacy: { ...data.pharmacy, name } })}
          error={e('pharmacy.name')}
          required={view.options.pharmacyRequired}
        />
        <TextField
          label={t('paperwork.pharmacyPhone')}
          type="tel"
          inputMode="tel"
          value={data.pharmacy?.phone}
          maxLength={maxLengthAt(paperworkSchema, 'pharmacy.phone')}
          onChange={(value) => set({ pharmacy: { ...data.pharmacy, phone: value } })}
          error={e('pharmacy.phone')}
        />
      </Section>

      {(view.options.ask.sexAssignedAtBirth ||
        view.options.ask.pronouns ||
        view.options.ask.sexualOrientation ||
        view.options.ask.communicationPreferences) && (
        <Section title={t('paperwork.aboutYou')}>
          {view.options.ask.sexAssignedAtBirth && (
            <div className="pw-field">
              <label htmlFor="pw-sex-at-birth">{t('paperwork.sexAtBirth')}</label>
              <select
                id="pw-sex-at-birth"
                className="pw-input"
                value={data.extended?.sexAssignedAtBirth ?? ''}
                onChange={(event) =>
                  set({
                    extended: {
                      ...data.extended,
                      sexAssignedAtBirth: (event.target.value || undefined) as
                        'female' | 'male' | 'intersex' | 'declined' | undefined,
                    },
                  })
                }
              >
                <option value="">{t('choose')}</option>
                {(['female', 'male', 'intersex', 'declined'] as const).map((value) => (
                  <option key={value} value={value}>
                    {t(`paperwork.sex.${value}`)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {view.options.ask.pronouns && (
            <TextField
              label={t('paperwork.pronouns')}
              value={data.extended?.pronouns}
              maxLength={maxLengthAt(paperworkSchema, 'extended.pronouns')}
              onChange={(pronouns) => set({ extended: { ...data.extended, pronouns } })}
            />
          )}
          {view.options.ask.sexualOrientation && (
            <TextField
              label={t('paperwork.orientation')}
              value={data.extended?.sexualOrientation}
              maxLength={maxLengthAt(paperworkSchema, 'extended.sexualOrientation')}
              onChange={(sexualOrientation) => set({ extended: { ...data.extended, sexualOrientation } })}
            />
          )}
          {view.options.ask.communicationPreferences && (
            <div className="pw-field">
              <label htmlFor="pw-communication">{t('paperwork.communication')}</label>
              <select
                id="pw-communication"
                className="pw-input"
                value={data.extended?.communicationPreference ?? ''}
                onChange={(event) =>
                  set({
                    extended: {
                      ...data.extended,
                      communicationPreference: (event.target.value || undefined) as
                        'email' | 'text' | 'phone' | 'mail' | undefined,
                    },
                  })
                }
              >
                <option value="">{t('choose')}</option>
                {(['email', 'text', 'phone', 'mail'] as const).map((value) => (
                  <option key={value} value={value}>
                    {t(`paperwork.channel.${value}`)}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Section>
      )}

      {agreement && (
        <Section title={agreement.title[language] ?? agreement.title.en}>
          <div className="pw-agreement" tabIndex={0} aria-label={agreement.title[language] ?? agreement.title.en}>
            {(agreement.text[language] ?? agreement.text.en).split('\n\n').map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          {agreement.fileUrl && (
            <p>
              <button type="button" className="pw-button-link" onClick={() => void openAgreement()}>
                {t('paperwork.openPdf')}
              </button>
              {pdfProblem && <span className="pw-error"> {t('paperwork.pdfFailed')}</span>}
            </p>
          )}
          <p className="pw-hint" id={signatureLabel}>
            {t('paperwork.signBelow')}
          </p>
          <SignaturePad
            value={(data.agreementSignature as SignatureAnswer | null | undefined) ?? null}
            onChange={(agreementSignature) => set({ agreementSignature })}
            labelledBy={signatureLabel}
            invalid={Boolean(e('agreementSignature'))}
          />
          {e('agreementSignature') && <p className="pw-error">{t('paperwork.signatureRequired')}</p>}
        </Section>
      )}
      <SaveNotice state={draft.saveState} />
      <ErrorSummary errors={draft.errors} />
      <div className="pw-nav">
        <button type="submit" className="pw-button pw-button-primary" disabled={draft.finishing}>
          {draft.finishing ? t('saving') : t('saveContinue')}
        </button>
      </div>
    </form>
  );
}

// ---- 2. health history (allergies, medications) -------------------------------------------------------

export function HistoryStep(props: StepProps) {
  const { t } = useTranslation('intake');
  const draft = useStepDraft<HealthHistory>({
    token: props.token,
    accessToken: props.accessToken,
    slug: 'history',
    language: props.language,
    saved: props.view.saved.history,
    initial: { allergies: [], medications: [] },
    onGone: props.onGone,
    onSessionEnded: props.onSessionEnded,
  });
  const data = draft.data;
  const set = (patch: Partial<HealthHistory>) => draft.update({ ...data, ...patch });
  const [allergy, setAllergy] = useState('');
  const [medication, setMedication] = useState({ name: '', dose: '', frequency: '' });
  const e = (path: string) => errorOf(draft.errors, path);
  return (
    <div className="pw-intake-step">
      <Section title={t('history.allergies')}>
        <label className="pw-choice">
          <input
            type="checkbox"
            checked={Boolean(data.noKnownAllergies)}
            onChange={(event) => set({ noKnownAllergies: event.target.checked })}
          />
          <span>{t('history.noAllergies')}</span>
        </label>
        {!data.noKnownAllergies && (
          <>
            <ul className="pw-list">
              {(data.allergies ?? []).map((entry, index) => (
                <li key={`${entry.name}-${index}`}>
                  {entry.name}
                  <button
                    type="button"
                    className="pw-button-link"
                    aria-label={t('history.removeNamed', { name: entry.name })}
                    onClick={() => set({ allergies: (data.allergies ?? []).filter((_, at) => at !== index) })}
                  >
                    {t('history.remove')}
                  </button>
                </li>
              ))}
            </ul>
            <TextField
              label={t('history.allergyName')}
              value={allergy}
              maxLength={maxLengthAt(healthHistorySchema, 'allergies.name')}
              onChange={setAllergy}
              error={e('allergies')}
            />
            <button
              type="button"
              className="pw-button pw-button-secondary"
              disabled={!allergy.trim()}
              onClick={() => {
                set({ allergies: [...(data.allergies ?? []), { name: allergy.trim() }] });
                setAllergy('');
              }}
            >
              {t('history.addAllergy')}
            </button>
          </>
        )}
      </Section>
      <Section title={t('history.medications')}>
        <label className="pw-choice">
          <input
            type="checkbox"
            checked={Boolean(data.noMedications)}
            onChange={(event) => set({ noMedications: event.target.checked })}
          />
          <span>{t('history.noMedications')}</span>
        </label>
        {!data.noMedications && (
          <>
            <ul className="pw-list">
              {(data.medications ?? []).map((entry, index) => (
                <li key={`${entry.name}-${index}`}>
                  {[entry.name, entry.dose, entry.frequency].filter(Boolean).join(' · ')}
                  <button
                    type="button"
                    className="pw-button-link"
                    aria-label={t('history.removeNamed', { name: entry.name })}
                    onClick={() => set({ medications: (data.medications ?? []).filter((_, at) => at !== index) })}
                  >
                    {t('history.remove')}
                  </button>
                </li>
              ))}
            </ul>
            <TextField
              label={t('history.medicationName')}
              value={medication.name}
              maxLength={maxLengthAt(healthHistorySchema, 'medications.name')}
              onChange={(name) => setMedication({ ...medication, name })}
              error={e('medications')}
            />
            <TextField
              label={t('history.dose')}
              value={medication.dose}
              maxLength={maxLengthAt(healthHistorySchema, 'medications.dose')}
              onChange={(dose) => setMedication({ ...medication, dose })}
            />
            <TextField
              label={t('history.frequency')}
              value={medication.frequency}
              maxLength={maxLengthAt(healthHistorySchema, 'medications.frequency')}
              onChange={(frequency) => setMedication({ ...medication, frequency })}
            />
            <button
              type="button"
              className="pw-button pw-button-secondary"
              disabled={!medication.name.trim()}
              onClick={() => {
                set({
                  medications: [
                    ...(data.medications ?? []),
                    {
                      name: medication.name.trim(),
                      ...(medication.dose.trim() ? { dose: medication.dose.trim() } : {}),
                      ...(medication.frequency.trim() ? { frequency: medication.frequency.trim() } : {}),
                    },
                  ],
                });
                setMedication({ name: '', dose: '', frequency: '' });
              }}
            >
              {t('history.addMedication')}
            </button>
          </>
        )}
      </Section>
      <SaveNotice state={draft.saveState} />
      <ErrorSummary errors={draft.errors} />
      <FinishButton
        busy={draft.finishing}
        label={t('saveContinue')}
        onClick={() => void draft.finish().then((ok) => ok && props.onFinished())}
      />
    </div>
  );
}

// ---- 4. pain scores ------------------------------------------------------------------------------------

/** Every score must be chosen (issue #24 §1): the contract's own rule, so the page and the server agree. */
function vasProblems(data: Partial<VasScores>): FieldErrors {
  const parsed = vasScoresSchema.safeParse(data);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

export function VasStep(props: StepProps) {
  const { t } = useTranslation(['intake', 'validation']);
  const scales = useRef<HTMLDivElement>(null);
  const draft = useStepDraft<Partial<VasScores>>({
    token: props.token,
    accessToken: props.accessToken,
    slug: 'vas',
    language: props.language,
    saved: props.view.saved.vas,
    initial: {},
    onGone: props.onGone,
    onSessionEnded: props.onSessionEnded,
    check: vasProblems,
  });
  const values = draft.data;
  // A refused finish names the questions left; each problem goes once that question is answered.
  const errors = Object.fromEntries(Object.entries(draft.errors).filter(([key]) => values[key as keyof VasScores] === undefined));
  // After a refused finish the keyboard lands on the first question still unanswered.
  const focusFirstUnanswered = () => {
    const key = vasKeys.find((candidate) => values[candidate] === undefined);
    if (key) scales.current?.querySelector<HTMLInputElement>(`input[name="pw-vas-${key}"]`)?.focus();
  };
  return (
    <div className="pw-intake-step" ref={scales}>
      <p className="pw-hint">{t('vas.scale')}</p>
      {vasKeys.map((key) => {
        const value = values[key];
        const error = errorOf(errors, key);
        return (
          <div className="pw-card pw-vas" key={key} data-testid={`vas-${key}`}>
            <p id={`pw-vas-${key}-title`} className="pw-section-title">
              {t(`vas.${key}`)}
            </p>
            <p className="pw-vas-state" id={`pw-vas-${key}-state`}>
              {value === undefined ? t('vas.notAnswered') : t('vas.answered', { value })}
            </p>
            <PainScale
              name={`pw-vas-${key}`}
              value={value}
              labelledBy={`pw-vas-${key}-title`}
              describedBy={[`pw-vas-${key}-state`, error ? `pw-vas-${key}-error` : ''].filter(Boolean).join(' ')}
              invalid={Boolean(error)}
              onChange={(score) => draft.update({ ...values, [key]: score })}
            />
            <p className="pw-vas-anchors" aria-hidden="true">
              {t('vas.anchors')}
            </p>
            {error && (
              <p className="pw-error" id={`pw-vas-${key}-error`}>
                {t(`validation:${error}`)}
              </p>
            )}
          </div>
        );
      })}
      <SaveNotice state={draft.saveState} />
      <ErrorSummary errors={errors} />
      <FinishButton
        busy={draft.finishing}
        label={t('saveContinue')}
        onClick={() => void draft.finish().then((ok) => (ok ? props.onFinished() : focusFirstUnanswered()))}
      />
    </div>
  );
}

// ---- 5. body map ----------------------------------------------------------------------------------------

export function BodyMapStep(props: StepProps) {
  const { t } = useTranslation('intake');
  const draft = useStepDraft<BodyMap>({
    token: props.token,
    accessToken: props.accessToken,
    slug: 'bodymap',
    language: props.language,
    saved: props.view.saved.bodymap,
    initial: { regions: {} },
    onGone: props.onGone,
    onSessionEnded: props.onSessionEnded,
    check: bodyMapProblems,
  });
  // Shown until the map is an answer again (an area marked, or "no pain anywhere" ticked).
  const bodyMapError =
    Object.keys(bodyMapProblems(draft.data)).length > 0
      ? (errorOf(draft.errors, 'regions') ?? errorOf(draft.errors, 'noPain'))
      : undefined;
  return (
    <div className="pw-intake-step">
      <BodyMapInput
        value={draft.data}
        onChange={draft.update}
        language={props.language}
        previous={props.view.previousBodyMap}
        error={bodyMapError}
      />
      <SaveNotice state={draft.saveState} />
      <ErrorSummary errors={bodyMapError ? draft.errors : {}} />
      <FinishButton
        busy={draft.finishing}
        label={t('saveContinue')}
        onClick={() => void draft.finish().then((ok) => ok && props.onFinished())}
      />
    </div>
  );
}

// ---- 7. payment -----------------------------------------------------------------------------------------

export function PaymentStep(props: StepProps) {
  const { t } = useTranslation('intake');
  const draft = useStepDraft<{ method: 'desk' }>({
    token: props.token,
    accessToken: props.accessToken,
    slug: 'payment',
    language: props.language,
    saved: props.view.saved.payment,
    initial: { method: 'desk' },
    onGone: props.onGone,
    onSessionEnded: props.onSessionEnded,
  });
  const cents = props.view.amountDueCents;
  const amount =
    cents === null
      ? null
      : new Intl.NumberFormat(props.language === 'es' ? 'es-US' : 'en-US', { style: 'currency', currency: 'USD' }).format(
          cents / 100,
        );
  return (
    <div className="pw-intake-step">
      <div className="pw-card">
        <p className="pw-section-title">{amount ? t('payment.due', { amount }) : t('payment.nothingDue')}</p>
        <p>{t('payment.desk')}</p>
      </div>
      <ErrorSummary errors={draft.errors} />
      <FinishButton
        busy={draft.finishing}
        label={t('payment.payAtDesk')}
        onClick={() => void draft.finish({ method: 'desk' }).then((ok) => ok && props.onFinished())}
      />
    </div>
  );
}
