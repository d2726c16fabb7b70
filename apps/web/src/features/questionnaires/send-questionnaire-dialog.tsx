import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconMail } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LINK_DEFAULT_DAYS, LINK_MAX_DAYS, type CreatedPatientLink } from '@pathwell/contracts/patient-links';
import { useSession } from '../../app/session-context';
import { absoluteUrl, CopyLinkButton } from '../../components/copy-link-button';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { formatClinicDate, formatClinicTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { OUTCOME_FORM_CODES, outcomeFormName } from './questionnaire-text';
import { questionnaireApi, questionnaireKeys, questionnaireQueries } from './questionnaires.api';
import { useFormAvailability } from './form-availability';

export type PatientAppointmentChoice = { id: string; startsAt: string; typeName: string | null };

type Send = 'none' | 'email';
type FieldErrors = Partial<Record<'formCode' | 'customFormId' | 'appointmentId' | 'expiresInDays', string>>;

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function CustomFormSelect({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
}) {
  const { t } = useTranslation('questionnaires');
  const forms = useQuery(questionnaireQueries.customForms());
  if (forms.isError) return <ErrorAlert testId="custom-forms-error">{errorText(forms.error)}</ErrorAlert>;
  const data = (forms.data?.data ?? []).filter((form) => !form.archived).map((form) => ({ value: form.id, label: form.title }));
  return (
    <Select
      label={t('send.customForm')}
      placeholder={forms.isPending ? t('common:loading') : t('send.pickCustomForm')}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      nothingFoundMessage={t('send.noCustomForms')}
      disabled={forms.isPending}
      error={error}
      required
    />
  );
}

function DialogBody({
  patientId,
  appointments,
  onClose,
}: {
  patientId: string;
  appointments: PatientAppointmentChoice[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'instrument' | 'custom'>('instrument');
  const availability = useFormAvailability();
  const [formCode, setFormCode] = useState<string | null>(null);
  const [customFormId, setCustomFormId] = useState<string | null>(null);
  const [appointmentId, setAppointmentId] = useState<string | null>(null);
  const [days, setDays] = useState<number | string>(LINK_DEFAULT_DAYS);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<{ link: CreatedPatientLink; send: Send; copied: boolean } | null>(null);

  const creating = useMutation({
    mutationFn: async (send: Send) => {
      const link = await questionnaireApi.createLink({
        patientId,
        appointmentId: appointmentId ?? null,
        formCode: kind === 'instrument' && formCode ? Number(formCode) : null,
        customFormId: kind === 'custom' ? customFormId : null,
        expiresInDays: Number(days),
        send,
      });
      const copied = send === 'none' ? await copyText(absoluteUrl(link.url)) : false;
      return { link, send, copied };
    },
    onSuccess: (result) => {
      setCreated(result);
      setFieldErrors({});
      void queryClient.invalidateQueries({ queryKey: questionnaireKeys.patientLinks(patientId) });
      notify('success', result.send === 'email' ? t('send.emailed') : result.copied ? t('send.copied') : t('send.created'));
    },
    onError: (failure) => {
      const fields = failure instanceof ApiError ? failure.fields : {};
      const placed: FieldErrors = {};
      for (const key of ['formCode', 'customFormId', 'appointmentId', 'expiresInDays'] as const) {
        if (fields[key]) placed[key] = translateValidation(fields[key]);
      }
      setFieldErrors(placed);
      if (Object.keys(placed).length === 0) notify('error', errorText(failure));
    },
  });

  const submit = (send: Send) => {
    const local: FieldErrors = {};
    if (kind === 'instrument' && !formCode) local.formCode = translateValidation('required');
    if (kind === 'custom' && !customFormId) local.customFormId = translateValidation('required');
    const dayCount = Number(days);
    if (!Number.isInteger(dayCount) || dayCount < 1 || dayCount > LINK_MAX_DAYS)
      local.expiresInDays = t('send.daysRange', { max: LINK_MAX_DAYS });
    setFieldErrors(local);
    if (Object.keys(local).length === 0) creating.mutate(send);
  };

  if (created) {
    const url = absoluteUrl(created.link.url);
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} />} data-testid="link-created">
          {created.send === 'email'
            ? t('send.emailedLong', { form: created.link.formTitle })
            : t('send.createdLong', { form: created.link.formTitle })}
        </Alert>
        <TextInput
          label={t('send.url')}
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          data-testid="link-url"
        />
        <Text size="sm" c="dimmed">
          {t('send.expires', {
            date: formatClinicDate(created.link.expiresAt, timeZone),
            time: formatClinicTime(created.link.expiresAt, timeZone),
          })}
        </Text>
        <Group justify="flex-end">
          <CopyLinkButton url={url} label={t('send.copyAgain')} copiedLabel={t('send.copiedShort')} />
          <Button onClick={onClose}>{t('send.done')}</Button>
        </Group>
      </Stack>
    );
  }

  const appointmentData = appointments.map((appointment) => ({
    value: appointment.id,
    label: [
      formatClinicDate(appointment.startsAt, timeZone),
      formatClinicTime(appointment.startsAt, timeZone),
      appointment.typeName,
    ]
      .filter(Boolean)
      .join(' · '),
  }));

  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label={t('send.kind')}
        value={kind}
        onChange={(value) => setKind(value === 'custom' ? 'custom' : 'instrument')}
        data={[
          { value: 'instrument', label: t('send.outcomeForms') },
          { value: 'custom', label: t('send.customForms') },
        ]}
      />
      {kind === 'instrument' ? (
        <Select
          label={t('send.outcomeForm')}
          placeholder={t('send.pickOutcomeForm')}
          data={OUTCOME_FORM_CODES.map((code) => ({
            value: String(code),
            label: availability.label(code, outcomeFormName(code, i18n.language)),
            disabled: availability.isUnavailable(code),
          }))}
          value={formCode}
          onChange={setFormCode}
          searchable
          description={availability.help}
          error={fieldErrors.formCode}
          required
        />
      ) : (
        <CustomFormSelect
          value={customFormId}
          onChange={setCustomFormId}
          error={fieldErrors.customFormId ?? fieldErrors.formCode}
        />
      )}
      <Select
        label={t('send.appointment')}
        description={t('send.appointmentHelp')}
        placeholder={t('send.noAppointment')}
        data={appointmentData}
        value={appointmentId}
        onChange={setAppointmentId}
        clearable
        error={fieldErrors.appointmentId}
      />
      <NumberInput
        label={t('send.days')}
        description={t('send.daysHelp', { max: LINK_MAX_DAYS })}
        min={1}
        max={LINK_MAX_DAYS}
        allowDecimal={false}
        value={days}
        onChange={setDays}
        error={fieldErrors.expiresInDays}
        w={200}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('send.cancel')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconMail size={16} aria-hidden />}
          onClick={() => submit('email')}
          loading={creating.isPending && creating.variables === 'email'}
          disabled={creating.isPending}
        >
          {t('send.email')}
        </Button>
        <Button
          leftSection={<IconCopy size={16} aria-hidden />}
          onClick={() => submit('none')}
          loading={creating.isPending && creating.variables === 'none'}
          disabled={creating.isPending}
        >
          {t('send.copy')}
        </Button>
      </Group>
    </Stack>
  );
}

export function SendQuestionnaireDialog({
  opened,
  onClose,
  patientId,
  appointments,
}: {
  opened: boolean;
  onClose: () => void;
  patientId: string;
  appointments: PatientAppointmentChoice[];
}) {
  const { t } = useTranslation('questionnaires');
  return (
    <Modal opened={opened} onClose={onClose} title={t('send.title')} size="lg">
      {opened ? <DialogBody patientId={patientId} appointments={appointments} onClose={onClose} /> : null}
    </Modal>
  );
}
