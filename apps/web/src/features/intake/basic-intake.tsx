import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  CopyButton,
  Group,
  List,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import type { CreatedIntake } from '@pathwell/contracts/intake';
import { intakeWorkSteps } from '@pathwell/contracts/intake';
import type { DuplicateMatch } from '@pathwell/contracts/patients';
import { US_PHONE_PATTERN, EMAIL_PATTERN, isValidMdyDate } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { clinicToday } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { api } from '../../lib/api-client';
import { appointmentApi, appointmentQueries } from '../appointments/appointments.api';
import { clinicInstant } from '../appointments/appointment-form';
import { PatientPicker } from '../appointments/patient-picker';
import { patientApi } from '../patients/patients.api';
import { OUTCOME_FORM_CODES, outcomeFormName } from '../questionnaires/questionnaire-text';
import { useFormAvailability } from '../questionnaires/form-availability';

const schema = z
  .object({
    mode: z.enum(['new', 'existing']),
    patientId: z.string(),
    firstName: z.string().trim().max(100, 'tooLong'),
    lastName: z.string().trim().max(100, 'tooLong'),
    dateOfBirth: z.string().trim(),
    email: z.string().trim().max(254, 'tooLong'),
    mobile: z.string().trim().max(30, 'tooLong'),
    language: z.enum(['en', 'es']),
    doctorId: z.string().min(1, 'required'),
    date: z.string().trim().refine(isValidMdyDate, 'dateInvalid'),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'required'),
    reason: z.enum(['new_patient', 'follow_up']),
    steps: z.array(z.string()),
    formCodes: z.array(z.string()),
    amountDue: z.union([z.number().min(0, 'numberOutOfRange').max(100_000, 'numberOutOfRange'), z.literal('')]),
    sendEmail: z.boolean(),
    sendSms: z.boolean(),
  })
  .superRefine((value, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (value.mode === 'existing') {
      if (!value.patientId) issue('patientId', 'required');
      return;
    }
    if (!value.firstName) issue('firstName', 'nameRequired');
    if (!value.lastName) issue('lastName', 'nameRequired');
    if (!isValidMdyDate(value.dateOfBirth)) issue('dateOfBirth', 'dateInvalid');
    if (value.email && !EMAIL_PATTERN.test(value.email)) issue('email', 'emailInvalid');
    if (value.mobile && !US_PHONE_PATTERN.test(value.mobile)) issue('mobile', 'phoneInvalid');
    if (value.sendEmail && !value.email) issue('email', 'emailRequired');
    if (value.sendSms && !value.mobile) issue('mobile', 'phoneRequired');
  });
type Values = z.input<typeof schema>;
type Parsed = z.output<typeof schema>;

const mdyToIso = (mdy: string) => {
  const [month, day, year] = mdy.split('/');
  return `${year}-${month}-${day}`;
};

/** What became of a send, in words: the status and, when it did not go, why (issue #24 §5). */
export function sendStatusText(t: TFunction<'intakeStaff'>, entry: CreatedIntake['sent'][number]): string {
  const status =
    entry.status === 'notSent'
      ? t('done.notSentStatus')
      : t(`communications:status.${entry.status}`, { defaultValue: entry.status });
  const reason =
    entry.reason === 'noAddress' ? t('done.noAddress') : entry.reason ? t(`communications:reasons.${entry.reason}`) : null;
  return reason ? `${status}: ${reason}` : status;
}

/** New patient, appointment and intake link in one screen (/patients/basicintake, decision 0032). */
export function BasicIntake() {
  const { t, i18n } = useTranslation('intakeStaff');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const doctors = useQuery(appointmentQueries.doctors());
  const availability = useFormAvailability();
  const [duplicates, setDuplicates] = useState<DuplicateMatch[] | null>(null);
  const [created, setCreated] = useState<{ intake: CreatedIntake; patientId: string } | null>(null);
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    setError,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(schema),
    defaultValues: {
      mode: 'new',
      patientId: '',
      firstName: '',
      lastName: '',
      dateOfBirth: '',
      email: '',
      mobile: '',
      language: i18n.language === 'es' ? 'es' : 'en',
      doctorId: session.user.role === 'Doctor' ? session.user.id : '',
      date: clinicToday(timeZone),
      time: '09:00',
      reason: 'new_patient',
      steps: [],
      formCodes: [],
      amountDue: '',
      sendEmail: true,
      sendSms: false,
    },
  });
  const mode = watch('mode');
  // A mobile typed means "text it too", unless staff chose otherwise: the box follows the number until touched.
  const mobile = watch('mobile');
  const [smsTouched, setSmsTouched] = useState(false);
  useEffect(() => {
    if (!smsTouched) setValue('sendSms', US_PHONE_PATTERN.test(mobile));
  }, [mobile, setValue, smsTouched]);

  const saving = useMutation({
    mutationFn: async ({ values, skipDuplicates }: { values: Parsed; skipDuplicates: boolean }) => {
      let patientId = values.patientId;
      if (values.mode === 'new') {
        if (!skipDuplicates) {
          const matches = await patientApi.checkDuplicates({
            lastName: values.lastName,
            dateOfBirth: mdyToIso(values.dateOfBirth),
            email: values.email || null,
          });
          if (matches.length > 0) return { duplicates: matches };
        }
        const patient = await patientApi.create({
          firstName: values.firstName,
          lastName: values.lastName,
          dateOfBirth: mdyToIso(values.dateOfBirth),
          email: values.email || null,
          doctorId: values.doctorId,
          preferredLanguage: values.language,
          patientPhoneNumbers: values.mobile ? [{ phoneType: 7, number: values.mobile, isPrimary: true }] : [],
        } as Parameters<typeof patientApi.create>[0]);
        patientId = patient.id;
      }
      const appointment = await appointmentApi.schedule({
        patientId,
        doctorId: values.doctorId,
        startsAt: clinicInstant(values.date, values.time, timeZone),
        reason: values.reason,
      } as Parameters<typeof appointmentApi.schedule>[0]);
      const intake = await api.post<CreatedIntake>('/api/patients/intake', {
        patientId,
        appointmentId: appointment.id,
        ...(values.steps.length > 0 ? { steps: values.steps.map(Number) } : {}),
        ...(values.formCodes.length > 0 ? { formCodes: values.formCodes.map(Number) } : {}),
        ...(values.amountDue === '' ? {} : { amountDueCents: Math.round(values.amountDue * 100) }),
        send: [...(values.sendEmail ? ['email'] : []), ...(values.sendSms ? ['sms'] : [])],
        language: values.language,
      });
      return { intake, patientId };
    },
    onSuccess: (result) => {
      if ('duplicates' in result) return setDuplicates(result.duplicates ?? []);
      setDuplicates(null);
      setCreated(result);
    },
    onError: (failure) => {
      const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
      const map: Record<string, keyof Values> = { startsAt: 'date', dateOfBirth: 'dateOfBirth', send: 'sendEmail' };
      for (const [name, key] of Object.entries(fields)) {
        const field = map[name] ?? name;
        if (field in schema.shape) setError(field as keyof Values, { message: key });
      }
    },
  });

  if (created) {
    return (
      <Paper withBorder p="lg" data-testid="basic-intake-done">
        <Stack gap="sm">
          <Title order={2} size="h3">
            {t('done.title')}
          </Title>
          <Text>{t('done.steps', { steps: created.intake.steps.map((step) => t(`steps.${step}`)).join(', ') })}</Text>
          {created.intake.sent.length > 0 ? (
            <List>
              {created.intake.sent.map((entry) => (
                <List.Item key={entry.channel} data-testid={`basic-intake-sent-${entry.channel}`}>
                  {t(`done.sent.${entry.channel}`, { status: sendStatusText(t, entry) })}
                </List.Item>
              ))}
            </List>
          ) : (
            <Text c="dimmed">{t('done.notSent')}</Text>
          )}
          <Group gap="xs" wrap="nowrap">
            <TextInput
              readOnly
              value={created.intake.url}
              aria-label={t('done.link')}
              style={{ flex: 1 }}
              data-testid="intake-url"
            />
            <CopyButton value={created.intake.url}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                  {copied ? t('done.copied') : t('done.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Group>
            <Anchor component={Link} to={`/patients/patientdashboard/${created.patientId}`}>
              {t('done.openPatient')}
            </Anchor>
            <Button
              variant="subtle"
              onClick={() => {
                setCreated(null);
                reset();
              }}
            >
              {t('done.another')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }

  const fieldError = (name: keyof Values) => translateValidation(errors[name]?.message as string | undefined);

  return (
    <form noValidate onSubmit={handleSubmit((values) => saving.mutate({ values, skipDuplicates: false }))}>
      <Stack gap="md" maw={900}>
        {saving.isError && !(saving.error as { fields?: unknown }).fields ? (
          <ErrorAlert testId="basic-intake-error">{errorText(saving.error)}</ErrorAlert>
        ) : null}
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('patient.title')}
            </Title>
            <Controller
              control={control}
              name="mode"
              render={({ field }) => (
                <SegmentedControl
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                  data={[
                    { value: 'new', label: t('patient.new') },
                    { value: 'existing', label: t('patient.existing') },
                  ]}
                  aria-label={t('patient.title')}
                />
              )}
            />
            {mode === 'existing' ? (
              <Controller
                control={control}
                name="patientId"
                render={({ field }) => (
                  <PatientPicker
                    value={field.value || null}
                    onChange={(id) => field.onChange(id ?? '')}
                    error={fieldError('patientId')}
                  />
                )}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput label={t('patient.firstName')} required {...register('firstName')} error={fieldError('firstName')} />
                <TextInput label={t('patient.lastName')} required {...register('lastName')} error={fieldError('lastName')} />
                <TextInput
                  label={t('patient.dateOfBirth')}
                  placeholder="MM/DD/YYYY"
                  required
                  {...register('dateOfBirth')}
                  error={fieldError('dateOfBirth')}
                />
                <TextInput label={t('patient.email')} type="email" {...register('email')} error={fieldError('email')} />
                <TextInput label={t('patient.mobile')} type="tel" {...register('mobile')} error={fieldError('mobile')} />
                <Controller
                  control={control}
                  name="language"
                  render={({ field }) => (
                    <Select
                      label={t('patient.language')}
                      data={[
                        { value: 'en', label: 'English' },
                        { value: 'es', label: 'Español' },
                      ]}
                      value={field.value}
                      onChange={(value) => field.onChange(value ?? 'en')}
                      allowDeselect={false}
                    />
                  )}
                />
              </SimpleGrid>
            )}
            {duplicates && duplicates.length > 0 ? (
              <Alert color="yellow" title={t('patient.duplicatesTitle')} data-testid="intake-duplicates">
                <Stack gap="xs">
                  <List>
                    {duplicates.map((match) => (
                      <List.Item key={match.id}>
                        <Group gap="xs">
                          <Text size="sm">
                            {match.fullName} · {match.birthDate}
                          </Text>
                          <Button
                            size="compact-sm"
                            variant="light"
                            onClick={() => {
                              setValue('mode', 'existing');
                              setValue('patientId', match.id);
                              setDuplicates(null);
                            }}
                          >
                            {t('patient.useThis')}
                          </Button>
                        </Group>
                      </List.Item>
                    ))}
                  </List>
                  <Group>
                    <Button
                      variant="light"
                      color="yellow"
                      onClick={handleSubmit((values) => saving.mutate({ values, skipDuplicates: true }))}
                    >
                      {t('patient.createAnyway')}
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            ) : null}
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('appointment.title')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
              <Controller
                control={control}
                name="doctorId"
                render={({ field }) => (
                  <Select
                    label={t('appointment.doctor')}
                    required
                    searchable
                    data={doctors.data ?? []}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    error={fieldError('doctorId')}
                  />
                )}
              />
              <TextInput
                label={t('appointment.date')}
                placeholder="MM/DD/YYYY"
                required
                {...register('date')}
                error={fieldError('date')}
              />
              <TextInput label={t('appointment.time')} type="time" required {...register('time')} error={fieldError('time')} />
              <Controller
                control={control}
                name="reason"
                render={({ field }) => (
                  <Select
                    label={t('appointment.reason')}
                    data={[
                      { value: 'new_patient', label: t('appointment.newPatient') },
                      { value: 'follow_up', label: t('appointment.followUp') },
                    ]}
                    value={field.value}
                    onChange={(value) => field.onChange(value ?? 'new_patient')}
                    allowDeselect={false}
                  />
                )}
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('intake.title')}
            </Title>
            <Controller
              control={control}
              name="steps"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('intake.steps')}
                  description={t('intake.stepsHint')}
                  value={field.value}
                  onChange={field.onChange}
                >
                  <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing={6} mt="xs">
                    {intakeWorkSteps.map((step) => (
                      <Checkbox key={step} value={String(step)} label={t(`steps.${step}`)} />
                    ))}
                  </SimpleGrid>
                </Checkbox.Group>
              )}
            />
            <Controller
              control={control}
              name="formCodes"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('intake.forms')}
                  description={[t('intake.formsHint'), availability.help].filter(Boolean).join(' ')}
                  value={field.value}
                  onChange={field.onChange}
                >
                  <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing={6} mt="xs">
                    {OUTCOME_FORM_CODES.map((code) => (
                      <Checkbox
                        key={code}
                        value={String(code)}
                        label={availability.label(code, outcomeFormName(code))}
                        disabled={availability.isUnavailable(code)}
                        description={availability.isUnavailable(code) ? availability.reason : undefined}
                      />
                    ))}
                  </SimpleGrid>
                </Checkbox.Group>
              )}
            />
            <Group align="flex-end">
              <Controller
                control={control}
                name="amountDue"
                render={({ field }) => (
                  <NumberInput
                    label={t('intake.amountDue')}
                    prefix="$"
                    decimalScale={2}
                    min={0}
                    value={field.value}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : '')}
                    error={fieldError('amountDue')}
                    w={180}
                  />
                )}
              />
              <Checkbox label={t('intake.sendEmail')} {...register('sendEmail')} error={fieldError('sendEmail')} />
              <Checkbox label={t('intake.sendSms')} {...register('sendSms', { onChange: () => setSmsTouched(true) })} />
            </Group>
          </Stack>
        </Paper>
        <Group>
          <Button type="submit" loading={saving.isPending} data-testid="basic-intake-submit">
            {t('submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
