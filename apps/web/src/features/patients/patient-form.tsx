import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useFieldArray, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import type { Language } from '@pathwell/contracts/constants';
import { enumerations, type EnumOption } from '@pathwell/contracts/enumerations';
import type { extendedPatientQuestionsSchema } from '@pathwell/contracts/instance-settings';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import {
  clinicalHistoryFields,
  contactPhoneTypes,
  isoToMdy,
  noneCodeOf,
  PatientPhoneType,
  patientFormSchema,
  type DuplicateMatch,
  type PatientFormValues,
  type PatientView,
} from '@pathwell/contracts/patients';
import { ErrorAlert } from '../../components/error-alert';
import { api } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { managedListQueries } from '../managed-lists/managed-lists.api';
import { sessionQueries } from '../session/session.api';
import { patientApi, patientKeys, patientQueries } from './patients.api';

type Output = z.output<typeof patientFormSchema>;
type ExtendedPatientQuestions = z.infer<typeof extendedPatientQuestionsSchema>;

const emptyValues: PatientFormValues = {
  firstName: '',
  middleName: '',
  lastName: '',
  dateOfBirth: '',
  email: '',
  rpmKey: '',
  streetAddress1: '',
  streetAddress2: '',
  city: '',
  state: null,
  zip: '',
  weight: null,
  heightFeet: null,
  heightInches: null,
  genderId: null,
  maritalStatusId: null,
  ethnicityId: null,
  occupationId: null,
  payorStatusId: null,
  nicotineStatusId: null,
  currentLawSuit: null,
  historySubstanceAbuse: null,
  agreementSignedDate: '',
  doctorId: null,
  enableEmail: true,
  enableText: true,
  preferredLanguage: 'en',
  patientPhoneNumbers: [{ phoneType: PatientPhoneType.MOBILE, number: '', isPrimary: true, contactName: '', relation: '' }],
  extended: {},
  referralSource: null,
  referringProviderId: null,
  diseaseStates: [],
  psychiatricHistory: [],
  surgicalHistory: [],
};

function valuesOf(patient: PatientView): PatientFormValues {
  return {
    ...patient,
    dateOfBirth: isoToMdy(patient.dateOfBirth),
    agreementSignedDate: isoToMdy(patient.agreementSignedDate),
    patientPhoneNumbers: patient.patientPhoneNumbers.map(({ phoneType, number, contactName, relation, isPrimary }) => ({
      phoneType,
      number,
      contactName: contactName ?? '',
      relation: relation ?? '',
      isPrimary,
    })),
  };
}

/** Server field paths the form can show next to an input. */
const shownFields = [
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'email',
  'zip',
  'weight',
  'heightFeet',
  'heightInches',
  'genderId',
  'maritalStatusId',
  'ethnicityId',
  'occupationId',
  'payorStatusId',
  'nicotineStatusId',
  'doctorId',
  'agreementSignedDate',
  'referralSource',
  'referringProviderId',
  'diseaseStates',
  'psychiatricHistory',
  'surgicalHistory',
] as const satisfies readonly FieldPath<PatientFormValues>[];

function useOptions() {
  const { i18n } = useTranslation();
  const language = (i18n.language === 'es' ? 'es' : 'en') as Language;
  return (options: readonly EnumOption[]) =>
    options.map((option) => ({ value: String(option.value), label: option.label[language] }));
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

type CustomFieldName = 'genderId' | 'maritalStatusId' | 'ethnicityId' | 'occupationId' | 'payorStatusId';
const customFieldKinds: Record<CustomFieldName, string> = {
  genderId: 'gender',
  maritalStatusId: 'maritalstatus',
  ethnicityId: 'ethnicity',
  occupationId: 'occupationstatus',
  payorStatusId: 'payorstatus',
};

function CustomFieldSelect({ name, control }: { name: CustomFieldName; control: Control<PatientFormValues, unknown, Output> }) {
  const { t } = useTranslation('patients');
  const list = findManagedList(`customfield:${customFieldKinds[name]}`)!;
  const items = useQuery(managedListQueries.options(list));
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          label={t(`fields.${name}`)}
          data={(items.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={field.value ?? null}
          onChange={(value) => field.onChange(value)}
          onBlur={field.onBlur}
          error={translateValidation(fieldState.error?.message)}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
          data-testid={`patient-${name}`}
        />
      )}
    />
  );
}

const referralList = findManagedList('referrals')!;

/** How the patient came to the clinic: the source, and the referring provider from the clinic's Referrals list. */
function ReferralFields({
  control,
  setSource,
}: {
  control: Control<PatientFormValues, unknown, Output>;
  setSource: (source: number) => void;
}) {
  const { t } = useTranslation('patients');
  const options = useOptions();
  const providers = useQuery(managedListQueries.options(referralList));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Controller
        control={control}
        name="referralSource"
        render={({ field, fieldState }) => (
          <Select
            label={t('fields.referralSource')}
            data={options(enumerations.referralSources)}
            value={field.value == null ? null : String(field.value)}
            onChange={(value) => field.onChange(value ? Number(value) : null)}
            onBlur={field.onBlur}
            error={translateValidation(fieldState.error?.message)}
            clearable
            searchable
            comboboxProps={{ withinPortal: true }}
            data-testid="patient-referralSource"
          />
        )}
      />
      <Controller
        control={control}
        name="referringProviderId"
        render={({ field, fieldState }) => (
          <Select
            label={t('fields.referringProviderId')}
            description={providers.data?.length === 0 ? t('form.noReferrals') : undefined}
            data={(providers.data ?? []).map((item) => {
              const practice = typeof item.attributes.practice === 'string' ? item.attributes.practice : '';
              return { value: item.id, label: practice ? `${item.name} · ${practice}` : item.name };
            })}
            value={field.value ?? null}
            onChange={(value) => {
              field.onChange(value);
              // The provider's own source fills an empty source: one choice instead of two.
              const source = providers.data?.find((item) => item.id === value)?.attributes.source;
              if (typeof source === 'number') setSource(source);
            }}
            onBlur={field.onBlur}
            error={translateValidation(fieldState.error?.message)}
            clearable
            searchable
            nothingFoundMessage={t('form.noReferralMatch')}
            comboboxProps={{ withinPortal: true }}
            data-testid="patient-referringProviderId"
          />
        )}
      />
    </SimpleGrid>
  );
}

/** One clinical-history list; its "None" stands alone, so picking it clears the rest and the rest clear it. */
function HistoryField({
  name,
  control,
}: {
  name: (typeof clinicalHistoryFields)[number];
  control: Control<PatientFormValues, unknown, Output>;
}) {
  const { t } = useTranslation('patients');
  const options = useOptions();
  const none = noneCodeOf(enumerations[name]);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MultiSelect
          label={t(`fields.${name}`)}
          data={options(enumerations[name])}
          value={(field.value ?? []).map(String)}
          onChange={(value) => {
            const codes = value.map(Number);
            const added = codes.find((code) => !(field.value ?? []).includes(code));
            if (none === undefined) field.onChange(codes);
            else field.onChange(added === none ? [none] : codes.filter((code) => code !== none));
          }}
          onBlur={field.onBlur}
          error={translateValidation(fieldState.error?.message)}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
          data-testid={`patient-${name}`}
        />
      )}
    />
  );
}

function YesNo({
  name,
  control,
}: {
  name: 'currentLawSuit' | 'historySubstanceAbuse';
  control: Control<PatientFormValues, unknown, Output>;
}) {
  const { t } = useTranslation('patients');
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Stack gap={4}>
          <Text size="sm" fw={500} id={`patient-${name}-label`}>
            {t(`fields.${name}`)}
          </Text>
          <SegmentedControl
            aria-labelledby={`patient-${name}-label`}
            value={field.value ?? 'unknown'}
            onChange={(value) => field.onChange(value === 'unknown' ? null : value)}
            data={[
              { value: 'yes', label: t('form.yes') },
              { value: 'no', label: t('form.no') },
              { value: 'unknown', label: t('form.unknown') },
            ]}
          />
        </Stack>
      )}
    />
  );
}

function NumberField({
  name,
  control,
  min,
  max,
  decimals = 0,
}: {
  name: 'weight' | 'heightFeet' | 'heightInches';
  control: Control<PatientFormValues, unknown, Output>;
  min: number;
  max: number;
  decimals?: number;
}) {
  const { t } = useTranslation('patients');
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={t(`fields.${name}`)}
          min={min}
          max={max}
          decimalScale={decimals}
          allowDecimal={decimals > 0}
          value={field.value ?? ''}
          onChange={(value) => field.onChange(typeof value === 'number' ? value : null)}
          onBlur={field.onBlur}
          error={translateValidation(fieldState.error?.message)}
          data-testid={`patient-${name}`}
        />
      )}
    />
  );
}

function DuplicateWarning({ matches, onContinue, busy }: { matches: DuplicateMatch[]; onContinue: () => void; busy: boolean }) {
  const { t } = useTranslation('patients');
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle size={18} />}
      title={t('form.duplicateTitle')}
      role="alert"
      data-testid="patient-duplicates"
    >
      <Stack gap="xs">
        <Text size="sm">{t('form.duplicateText')}</Text>
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {matches.map((match) => (
            <li key={match.id}>
              <Anchor component={Link} to={`/patients/patientdashboard/${match.id}`} data-testid="patient-duplicate-link">
                {match.fullName} · {isoToMdy(match.birthDate)}
              </Anchor>{' '}
              <Text span size="xs" c="dimmed">
                ({t(`form.matchedOn.${match.matchedOn}`)})
              </Text>
            </li>
          ))}
        </ul>
        <Group>
          <Button variant="light" color="yellow" onClick={onContinue} loading={busy} data-testid="patient-create-anyway">
            {t('form.createAnyway')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

export function PatientForm({
  patient,
  isDoctor,
  doctorUserId,
  extendedQuestions,
}: {
  patient: PatientView | null;
  isDoctor: boolean;
  doctorUserId: string;
  extendedQuestions: ExtendedPatientQuestions | undefined;
}) {
  const { t } = useTranslation('patients');
  const options = useOptions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const providers = useQuery(sessionQueries.providers());
  const [error, setError] = useState<string | null>(null);
  const [duplicates, setDuplicates] = useState<DuplicateMatch[] | null>(null);
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<PatientFormValues, unknown, Output>({
    resolver: zodResolver(patientFormSchema),
    defaultValues: patient ? valuesOf(patient) : { ...emptyValues, doctorId: isDoctor ? doctorUserId : null },
  });
  const phones = useFieldArray({ control, name: 'patientPhoneNumbers' });
  const phoneValues = watch('patientPhoneNumbers') ?? [];

  const save = useMutation({
    mutationFn: (values: Output) => (patient ? patientApi.update(patient.id, values) : patientApi.create(values)),
    onSuccess: async (saved) => {
      notify('success', t(patient ? 'form.updated' : 'form.created', { name: saved.fullName }));
      await queryClient.invalidateQueries({ queryKey: patientKeys.all });
      void navigate('/patients/list');
    },
    onError: (failure) => {
      const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
      let placed = applyServerFieldErrors(failure, setFieldError, shownFields);
      for (const [path, key] of Object.entries(fields)) {
        if (path.startsWith('patientPhoneNumbers.')) {
          setFieldError(path as FieldPath<PatientFormValues>, { type: 'server', message: key });
          placed = true;
        }
      }
      if (!placed) setError(errorText(failure));
    },
  });

  const submit = handleSubmit(async (values) => {
    setError(null);
    if (!patient && duplicates === null) {
      try {
        const matches = await patientApi.checkDuplicates({
          lastName: values.lastName,
          dateOfBirth: values.dateOfBirth,
          email: values.email,
        });
        if (matches.length > 0) {
          setDuplicates(matches);
          return;
        }
      } catch (failure) {
        setError(errorText(failure));
        return;
      }
    }
    await save.mutateAsync(values).catch(() => undefined);
  });

  const text = (
    name: 'firstName' | 'middleName' | 'lastName' | 'email' | 'streetAddress1' | 'streetAddress2' | 'city' | 'zip' | 'rpmKey',
    extra: Record<string, unknown> = {},
  ) => (
    <TextInput
      label={t(`fields.${name}`)}
      {...register(name)}
      error={translateValidation(errors[name]?.message)}
      data-testid={`patient-${name}`}
      {...extra}
    />
  );

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={patient ? t('form.editTitle') : t('form.createTitle')}
      onChange={(event) => {
        // A changed name, birth date or email needs a fresh duplicate check.
        const { name } = event.target as { name?: string };
        if (name && ['lastName', 'dateOfBirth', 'email'].includes(name)) setDuplicates(null);
      }}
    >
      <Stack gap="lg">
        {error ? <ErrorAlert testId="patient-form-error">{error}</ErrorAlert> : null}
        <Section title={t('form.identity')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {text('firstName', { required: true })}
            {text('middleName')}
            {text('lastName', { required: true })}
            <TextInput
              label={t('fields.dateOfBirth')}
              placeholder="MM/DD/YYYY"
              required
              {...register('dateOfBirth')}
              error={translateValidation(errors.dateOfBirth?.message)}
              data-testid="patient-dateOfBirth"
            />
            {text('email', { type: 'email', autoComplete: 'off' })}
            <Controller
              control={control}
              name="preferredLanguage"
              render={({ field }) => (
                <Select
                  label={t('fields.preferredLanguage')}
                  data={[
                    { value: 'en', label: t('form.english') },
                    { value: 'es', label: t('form.spanish') },
                  ]}
                  value={field.value ?? 'en'}
                  onChange={(value) => field.onChange(value ?? 'en')}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
          </SimpleGrid>
        </Section>

        <Section title={t('form.address')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('streetAddress1')}
            {text('streetAddress2')}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {text('city')}
            <Controller
              control={control}
              name="state"
              render={({ field }) => (
                <Select
                  label={t('fields.state')}
                  data={options(enumerations.usStates)}
                  value={field.value ?? null}
                  onChange={(value) => field.onChange(value)}
                  clearable
                  searchable
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            {text('zip', { inputMode: 'numeric', placeholder: '12345' })}
          </SimpleGrid>
        </Section>

        <Section title={t('form.phones')}>
          {phones.fields.map((item, index) => {
            const type = phoneValues[index]?.phoneType ?? PatientPhoneType.MOBILE;
            const phoneErrors = errors.patientPhoneNumbers?.[index];
            return (
              <Paper key={item.id} withBorder p="sm" radius="md" data-testid="patient-phone-row">
                <SimpleGrid cols={{ base: 1, sm: contactPhoneTypes.includes(type) ? 4 : 2 }}>
                  <Controller
                    control={control}
                    name={`patientPhoneNumbers.${index}.phoneType`}
                    render={({ field }) => (
                      <Select
                        label={t('fields.phoneType')}
                        data={options(enumerations.patientPhoneTypes)}
                        value={String(field.value)}
                        onChange={(value) => field.onChange(Number(value ?? PatientPhoneType.MOBILE))}
                        allowDeselect={false}
                        comboboxProps={{ withinPortal: true }}
                      />
                    )}
                  />
                  <TextInput
                    label={t('fields.phoneNumber')}
                    inputMode="tel"
                    placeholder="(555) 555-5555"
                    required
                    {...register(`patientPhoneNumbers.${index}.number`)}
                    error={translateValidation(phoneErrors?.number?.message)}
                    data-testid={`patient-phone-${index}`}
                  />
                  {contactPhoneTypes.includes(type) ? (
                    <>
                      <TextInput label={t('fields.contactName')} {...register(`patientPhoneNumbers.${index}.contactName`)} />
                      <TextInput label={t('fields.relation')} {...register(`patientPhoneNumbers.${index}.relation`)} />
                    </>
                  ) : null}
                </SimpleGrid>
                <Group justify="space-between" mt="xs">
                  <Checkbox
                    label={t('fields.isPrimary')}
                    checked={Boolean(phoneValues[index]?.isPrimary)}
                    onChange={(event) => {
                      const checked = event.currentTarget.checked;
                      phoneValues.forEach((_phone, other) =>
                        setValue(`patientPhoneNumbers.${other}.isPrimary`, checked ? other === index : false),
                      );
                    }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => phones.remove(index)}
                    aria-label={t('form.removePhone', { number: index + 1 })}
                    data-testid={`patient-remove-phone-${index}`}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Paper>
            );
          })}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() =>
                phones.append({
                  phoneType: PatientPhoneType.HOME,
                  number: '',
                  isPrimary: phones.fields.length === 0,
                  contactName: '',
                  relation: '',
                })
              }
              data-testid="patient-add-phone"
            >
              {t('form.addPhone')}
            </Button>
          </Group>
        </Section>

        <Section title={t('form.clinical')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberField name="weight" control={control} min={0} max={1500} decimals={1} />
            <NumberField name="heightFeet" control={control} min={0} max={9} />
            <NumberField name="heightInches" control={control} min={0} max={11} />
            <CustomFieldSelect name="genderId" control={control} />
            <CustomFieldSelect name="maritalStatusId" control={control} />
            <CustomFieldSelect name="ethnicityId" control={control} />
            <CustomFieldSelect name="occupationId" control={control} />
            <CustomFieldSelect name="payorStatusId" control={control} />
            <Controller
              control={control}
              name="nicotineStatusId"
              render={({ field, fieldState }) => (
                <Select
                  label={t('fields.nicotineStatusId')}
                  data={options(enumerations.nicotineStatus)}
                  value={field.value == null ? null : String(field.value)}
                  onChange={(value) => field.onChange(value ? Number(value) : null)}
                  error={translateValidation(fieldState.error?.message)}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <YesNo name="currentLawSuit" control={control} />
            <YesNo name="historySubstanceAbuse" control={control} />
          </SimpleGrid>
        </Section>

        <Section title={t('form.referral')}>
          <ReferralFields
            control={control}
            setSource={(source) => {
              if (watch('referralSource') == null) setValue('referralSource', source);
            }}
          />
        </Section>

        <Section title={t('form.history')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {clinicalHistoryFields.map((name) => (
              <HistoryField key={name} name={name} control={control} />
            ))}
          </SimpleGrid>
        </Section>

        {extendedQuestions &&
        (extendedQuestions.extendedPatientAskSexualOrientation ||
          extendedQuestions.extendedPatientAskAssignedSexAtBirth ||
          extendedQuestions.extendedPatientAskPreferredPronouns ||
          extendedQuestions.extendedPatientAskCommunicationPreferences) ? (
          <Section title={t('form.extended')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {extendedQuestions.extendedPatientAskSexualOrientation ? (
                <Controller
                  control={control}
                  name="extended.sexualOrientation"
                  render={({ field }) => (
                    <Select
                      label={t('fields.sexualOrientation')}
                      data={options(enumerations.sexualOrientation)}
                      value={field.value == null ? null : String(field.value)}
                      onChange={(value) => field.onChange(value ? Number(value) : null)}
                      clearable
                      comboboxProps={{ withinPortal: true }}
                      data-testid="patient-sexual-orientation"
                    />
                  )}
                />
              ) : null}
              {extendedQuestions.extendedPatientAskAssignedSexAtBirth ? (
                <Controller
                  control={control}
                  name="extended.assignedSexAtBirth"
                  render={({ field }) => (
                    <Select
                      label={t('fields.assignedSexAtBirth')}
                      data={options(enumerations.sexAssignedAtBirth)}
                      value={field.value ?? null}
                      onChange={(value) => field.onChange(value)}
                      clearable
                      comboboxProps={{ withinPortal: true }}
                    />
                  )}
                />
              ) : null}
              {extendedQuestions.extendedPatientAskPreferredPronouns ? (
                <Controller
                  control={control}
                  name="extended.preferredPronouns"
                  render={({ field }) => (
                    <Select
                      label={t('fields.preferredPronouns')}
                      data={options(enumerations.pronouns)}
                      value={field.value == null ? null : String(field.value)}
                      onChange={(value) => field.onChange(value ? Number(value) : null)}
                      clearable
                      comboboxProps={{ withinPortal: true }}
                    />
                  )}
                />
              ) : null}
              {extendedQuestions.extendedPatientAskCommunicationPreferences ? (
                <Controller
                  control={control}
                  name="extended.communicationPreferences"
                  render={({ field }) => (
                    <MultiSelect
                      label={t('fields.communicationPreferences')}
                      data={options(enumerations.communicationPreferences)}
                      value={(field.value ?? []).map(String)}
                      onChange={(value) => field.onChange(value.map(Number))}
                      comboboxProps={{ withinPortal: true }}
                    />
                  )}
                />
              ) : null}
            </SimpleGrid>
          </Section>
        ) : null}

        <Section title={t('form.care')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Controller
              control={control}
              name="doctorId"
              render={({ field, fieldState }) => (
                <Select
                  label={t('fields.doctor')}
                  data={(providers.data ?? []).map((doctor) => ({
                    value: doctor.id,
                    label: `${doctor.firstName} ${doctor.lastName}`.trim(),
                  }))}
                  value={field.value ?? null}
                  onChange={(value) => field.onChange(value)}
                  error={translateValidation(fieldState.error?.message)}
                  disabled={isDoctor}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                  data-testid="patient-doctor"
                />
              )}
            />
            <TextInput
              label={t('fields.agreementSignedDate')}
              placeholder="MM/DD/YYYY"
              {...register('agreementSignedDate')}
              error={translateValidation(errors.agreementSignedDate?.message)}
              data-testid="patient-agreementSignedDate"
            />
            {text('rpmKey')}
          </SimpleGrid>
          <Group gap="xl">
            {(['enableEmail', 'enableText'] as const).map((name) => (
              <Controller
                key={name}
                control={control}
                name={name}
                render={({ field }) => (
                  <Switch
                    label={t(`fields.${name}`)}
                    checked={field.value ?? true}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    onBlur={field.onBlur}
                    data-testid={`patient-${name}`}
                  />
                )}
              />
            ))}
          </Group>
        </Section>

        {duplicates && duplicates.length > 0 ? (
          <DuplicateWarning
            matches={duplicates}
            busy={save.isPending}
            onContinue={() => {
              void handleSubmit(async (values) => {
                await save.mutateAsync(values).catch(() => undefined);
              })();
            }}
          />
        ) : null}

        <Group justify="flex-end" gap="xs">
          <Button variant="default" component={Link} to="/patients/list">
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting || save.isPending} data-testid="patient-save">
            {patient ? t('form.save') : t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Loads the record (when editing) and the clinic's extended-question settings, then shows the form. */
export function PatientFormPage({ id, isDoctor, doctorUserId }: { id: string | null; isDoctor: boolean; doctorUserId: string }) {
  const { t } = useTranslation('patients');
  const patient = useQuery({ ...patientQueries.detail(id ?? ''), enabled: id !== null });
  const questions = useQuery({
    queryKey: ['patients', 'extended-questions'],
    queryFn: () => api.get<ExtendedPatientQuestions>('/api/instancesettings/extendedpatientquestions', { background: true }),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  if (id !== null && patient.isError) return <ErrorAlert testId="patient-load-error">{errorText(patient.error)}</ErrorAlert>;
  if ((id !== null && !patient.data) || questions.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  return (
    <PatientForm
      key={patient.data?.id ?? 'new'}
      patient={patient.data ?? null}
      isDoctor={isDoctor}
      doctorUserId={doctorUserId}
      extendedQuestions={questions.data}
    />
  );
}
