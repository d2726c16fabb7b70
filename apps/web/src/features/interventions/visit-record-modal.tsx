import {
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Select,
  TagsInput,
  TextInput,
  Text,
  Textarea,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Language } from '@pathwell/contracts/constants';
import { enumerations } from '@pathwell/contracts/enumerations';
import { ICD10_CODE_PATTERN, NO_ACTIONS_TAKEN, type RecentCode, type VisitRecord } from '@pathwell/contracts/interventions';
import { CPT_CODE_PATTERN } from '@pathwell/contracts/managed-lists';
import type { RecordedPain } from '@pathwell/contracts/pain-journal';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError, apiRequest } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { interventionApi, interventionKeys, interventionQueries } from './interventions.api';

const codeOption = (row: RecentCode) => (row.clinicLabel ? `${row.code} — ${row.clinicLabel}` : row.code);
const codeOf = (value: string) => value.split(' — ')[0]!.trim().toUpperCase();

/** The visit record of one appointment (issue #13 §1): actions taken, ICD-10-CM and CPT codes, visit note. */
export function VisitRecordModal({
  appointmentId,
  patientId,
  onClose,
}: {
  appointmentId: string;
  patientId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('interventions');
  const record = useQuery(interventionQueries.visitRecord(appointmentId));
  return (
    <Modal opened onClose={onClose} title={t('visit.title')} size="lg">
      {record.isError ? <ErrorAlert>{t('visit.loadFailed')}</ErrorAlert> : null}
      {record.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('common:loading')} />
        </Center>
      ) : null}
      {record.data ? <VisitRecordForm record={record.data} patientId={patientId} onClose={onClose} /> : null}
      {record.data ? <NewPainForm appointmentId={appointmentId} /> : null}
    </Modal>
  );
}

function VisitRecordForm({ record, patientId, onClose }: { record: VisitRecord; patientId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('interventions');
  const language = (i18n.language === 'es' ? 'es' : 'en') as Language;
  const queryClient = useQueryClient();
  const diagnosisOptions = useQuery(interventionQueries.recentCodes('diagnosis'));
  const procedureOptions = useQuery(interventionQueries.recentCodes('procedure'));
  const [actions, setActions] = useState<string[]>(record.actionsTaken.map(String));
  const [diagnoses, setDiagnoses] = useState(record.diagnosisCodes);
  const [procedures, setProcedures] = useState(record.procedureCodes);
  const [note, setNote] = useState(record.note ?? '');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const save = useMutation({
    mutationFn: () =>
      interventionApi.saveVisitRecord(record.appointmentId, {
        actionsTaken: actions.map(Number),
        diagnosisCodes: diagnoses,
        procedureCodes: procedures,
        note,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(interventionKeys.visitRecord(record.appointmentId), saved);
      void queryClient.invalidateQueries({ queryKey: ['interventions', 'recent-codes'] });
      notify('success', t('visit.saved'));
      onClose();
    },
    onError: (failure) => setFieldErrors(failure instanceof ApiError ? failure.fields : {}),
  });

  const badDiagnosis = diagnoses.find((code) => !ICD10_CODE_PATTERN.test(code));
  const badProcedure = procedures.find((code) => !CPT_CODE_PATTERN.test(code));
  const fieldError = (prefix: string) =>
    translateValidation(Object.entries(fieldErrors).find(([field]) => field === prefix || field.startsWith(`${prefix}.`))?.[1]);
  const noActions = actions.includes(String(NO_ACTIONS_TAKEN));

  return (
    <Stack gap="md" data-testid="visit-record-form">
      <Checkbox.Group
        label={t('visit.actions')}
        value={actions}
        onChange={(values) =>
          // "No Actions Taken" stands alone: choosing it clears the others, choosing another clears it.
          setActions(
            values.includes(String(NO_ACTIONS_TAKEN)) && !actions.includes(String(NO_ACTIONS_TAKEN))
              ? [String(NO_ACTIONS_TAKEN)]
              : values.filter((value) => value !== String(NO_ACTIONS_TAKEN) || values.length === 1),
          )
        }
        error={fieldError('actionsTaken')}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
          {enumerations.visitActions.map((option) => (
            <Checkbox
              key={option.value}
              value={String(option.value)}
              label={option.label[language]}
              disabled={noActions && option.value !== NO_ACTIONS_TAKEN}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <TagsInput
        label={t('visit.diagnosisCodes')}
        description={t('visit.diagnosisHelp')}
        data={(diagnosisOptions.data ?? []).map(codeOption)}
        value={diagnoses}
        onChange={(values) => setDiagnoses([...new Set(values.map(codeOf))])}
        maxTags={12}
        splitChars={[',', ' ']}
        error={badDiagnosis ? t('visit.badDiagnosis', { code: badDiagnosis }) : fieldError('diagnosisCodes')}
      />
      <TagsInput
        label={t('visit.procedureCodes')}
        description={t('visit.procedureHelp')}
        data={(procedureOptions.data ?? []).map(codeOption)}
        value={procedures}
        onChange={(values) => setProcedures([...new Set(values.map(codeOf))])}
        maxTags={20}
        splitChars={[',', ' ']}
        error={badProcedure ? t('visit.badProcedure', { code: badProcedure }) : fieldError('procedureCodes')}
      />
      <Textarea
        label={t('visit.note')}
        rows={4}
        maxLength={10_000}
        value={note}
        onChange={(event) => setNote(event.currentTarget.value)}
      />
      {record.recordedByName && record.updatedAt ? (
        <Text size="xs" c="dimmed">
          {t('visit.lastSaved', { name: record.recordedByName, date: new Date(record.updatedAt).toLocaleString(language) })}
        </Text>
      ) : null}
      {save.isError && Object.keys(fieldErrors).length === 0 ? <ErrorAlert>{errorText(save.error)}</ErrorAlert> : null}
      <Group justify="space-between">
        <Anchor
          component={Link}
          size="sm"
          to={`/patients/intervention/interventionform/new/${patientId}?appointmentId=${record.appointmentId}`}
        >
          {t('visit.recordProcedure')}
        </Anchor>
        <Group>
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={Boolean(badDiagnosis || badProcedure)}>
            {t('visit.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * "Record new pain" (PATCH recordnewpain): the pain the patient reports now at this visit, with a note;
 * it becomes the visit's pain score on the dashboard chart.
 */
function NewPainForm({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('interventions');
  const queryClient = useQueryClient();
  const [score, setScore] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () =>
      apiRequest<RecordedPain>(`/api/patientappointments/recordnewpain/${appointmentId}`, {
        method: 'PATCH',
        body: { score: Number(score), note: note.trim() || undefined },
      }),
    onSuccess: () => {
      notify('success', t('pain.saved'));
      setNote('');
      void queryClient.invalidateQueries();
    },
  });
  return (
    <Stack gap="xs" mt="lg" pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }} data-testid="new-pain-form">
      <Text fw={600}>{t('pain.title')}</Text>
      <Text size="xs" c="dimmed">
        {t('pain.help')}
      </Text>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('pain.score')}
          data={Array.from({ length: 11 }, (_, value) => ({ value: String(value), label: String(value) }))}
          value={score}
          onChange={setScore}
          w={120}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={t('pain.note')}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={1000}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button variant="light" onClick={() => save.mutate()} loading={save.isPending} disabled={score === null}>
          {t('pain.save')}
        </Button>
      </Group>
      {save.isError ? <ErrorAlert>{errorText(save.error)}</ErrorAlert> : null}
    </Stack>
  );
}
