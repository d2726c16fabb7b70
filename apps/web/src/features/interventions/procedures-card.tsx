import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Language } from '@pathwell/contracts/constants';
import { enumerations } from '@pathwell/contracts/enumerations';
import {
  plannedProcedureStatuses,
  type ComplianceInput,
  type Intervention,
  type PlannedProcedure,
  type PlannedProcedureStatus,
} from '@pathwell/contracts/interventions';
import { isoToMdy } from '@pathwell/contracts/patients';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { CohortsModal } from './cohorts-modal';
import { interventionApi, interventionKeys, interventionQueries } from './interventions.api';

const statusColor: Record<PlannedProcedureStatus, string> = {
  planned: 'gray',
  authorisationRequested: 'yellow',
  authorised: 'teal',
  denied: 'red',
  scheduled: 'blue',
  performed: 'green',
  cancelled: 'gray',
};

function describeIntervention(row: Intervention, t: (key: string) => string) {
  if (row.kind === 'pump') return t('kinds.pump');
  return row.item?.name ?? t(`kinds.${row.kind}`);
}

/**
 * The patient's interventional care on the dashboard (issue #13): procedures, injections and pump visits
 * with their note, the procedures planned with the payer's checklist, and the patient's cohorts.
 */
export function ProceduresCard({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('interventions');
  const language = (i18n.language === 'es' ? 'es' : 'en') as Language;
  const titleId = useId();
  const records = useQuery(interventionQueries.patient(patientId));
  const planned = useQuery(interventionQueries.planned(patientId));
  // The form's lists are cached and shared with the form; here they say whether procedure notes are on.
  const notesEnabled = useQuery(interventionQueries.formInfo(patientId)).data?.procedureNotesEnabled ?? false;
  const [editing, setEditing] = useState<PlannedProcedure | 'new' | null>(null);
  const completion = (value: number) => enumerations.completion.find((row) => row.value === value)?.label[language] ?? '';

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="procedures-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={titleId}>
            {t('card.title')}
          </Title>
          <Button
            component={Link}
            to={`/patients/intervention/interventionform/new/${patientId}`}
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
          >
            {t('card.record')}
          </Button>
        </Group>
        {records.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {records.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
        {records.data?.length === 0 ? <Text c="dimmed">{t('card.none')}</Text> : null}
        {records.data && records.data.length > 0 ? (
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" data-testid="procedures-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('card.date')}</Table.Th>
                  <Table.Th scope="col">{t('card.what')}</Table.Th>
                  <Table.Th scope="col">{t('card.completion')}</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('card.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {records.data.map((row) => (
                  <Table.Tr key={row.id} data-testid="procedure-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{isoToMdy(row.performedOn)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {describeIntervention(row, t)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {[row.levels.join(', '), row.side ? t(`sides.${row.side}`) : null, row.provider?.name]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={row.completion === 1 ? 'green' : row.completion === 3 ? 'yellow' : 'gray'}
                        miw="max-content"
                      >
                        {completion(row.completion)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        <Anchor component={Link} size="sm" to={`/patients/intervention/interventionform/${row.id}/${patientId}`}>
                          {t('card.open')}
                        </Anchor>
                        {/* Every kind has its note, pump visits too (the server always could make one). */}
                        {notesEnabled ? (
                          <Anchor
                            component={Link}
                            size="sm"
                            to={`/patients/procedurenoteform/${row.id}/${patientId}/${row.provider?.id ?? 'none'}/${row.kind}`}
                          >
                            {t('card.note')}
                          </Anchor>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}

        <Group justify="space-between" mt="xs">
          <Text fw={600}>{t('planned.title')}</Text>
          <Button size="xs" variant="light" onClick={() => setEditing('new')}>
            {t('planned.add')}
          </Button>
        </Group>
        {planned.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
        {planned.data?.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('planned.none')}
          </Text>
        ) : null}
        {planned.data?.map((row) => {
          const checks = [
            row.compliance.physicalTherapyCompleted,
            row.compliance.imagingCompleted,
            row.compliance.psychEvaluationCompleted,
          ].filter(Boolean).length;
          return (
            <Group key={row.id} justify="space-between" wrap="nowrap" data-testid="planned-procedure">
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {row.item.name}
                  {row.item.cptCode ? ` (${row.item.cptCode})` : ''}
                </Text>
                <Text size="xs" c="dimmed">
                  {[
                    row.plannedFor ? t('planned.on', { date: isoToMdy(row.plannedFor) }) : null,
                    t('planned.checklist', { done: checks, total: 3 }),
                    row.compliance.conservativeCareWeeks !== null
                      ? t('planned.weeks', { count: row.compliance.conservativeCareWeeks })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                <Badge color={statusColor[row.status]} variant="light" miw="max-content">
                  {t(`planned.statuses.${row.status}`)}
                </Badge>
                <Button size="compact-xs" variant="subtle" onClick={() => setEditing(row)}>
                  {t('planned.edit')}
                </Button>
              </Group>
            </Group>
          );
        })}
        <CohortsRow patientId={patientId} />
      </Stack>
      {editing ? (
        <PlannedProcedureModal
          patientId={patientId}
          planned={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Paper>
  );
}

function PlannedProcedureModal({
  patientId,
  planned,
  onClose,
}: {
  patientId: string;
  planned: PlannedProcedure | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('interventions');
  const queryClient = useQueryClient();
  const info = useQuery(interventionQueries.formInfo(patientId));
  const [itemId, setItemId] = useState<string | null>(planned?.item.id ?? null);
  const [status, setStatus] = useState<PlannedProcedureStatus>(planned?.status ?? 'planned');
  const [plannedFor, setPlannedFor] = useState(planned?.plannedFor ?? '');
  const [compliance, setCompliance] = useState<ComplianceInput>(
    planned?.compliance ?? {
      conservativeCareWeeks: null,
      physicalTherapyCompleted: false,
      imagingCompleted: false,
      psychEvaluationCompleted: false,
      notes: '',
    },
  );
  const save = useMutation({
    mutationFn: async () => {
      const saved = await interventionApi.upsertPlanned({
        id: planned?.id,
        patientId,
        itemId: itemId!,
        status,
        plannedFor: plannedFor || null,
      });
      return interventionApi.compliance(saved.id, compliance);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: interventionKeys.planned(patientId) });
      notify('success', t('planned.saved'));
      onClose();
    },
  });
  const items = [...(info.data?.procedures ?? []), ...(info.data?.injections ?? [])];
  return (
    <Modal opened onClose={onClose} title={planned ? t('planned.editTitle') : t('planned.addTitle')} size="lg">
      <Stack gap="sm">
        <Select
          label={t('planned.procedure')}
          required
          searchable
          data={items.map((item) => ({ value: item.id, label: item.cptCode ? `${item.name} (${item.cptCode})` : item.name }))}
          value={itemId}
          onChange={setItemId}
        />
        <Group grow>
          <Select
            label={t('planned.status')}
            data={plannedProcedureStatuses.map((value) => ({ value, label: t(`planned.statuses.${value}`) }))}
            value={status}
            onChange={(value) => setStatus((value as PlannedProcedureStatus) ?? 'planned')}
            allowDeselect={false}
          />
          <TextInput
            type="date"
            label={t('planned.date')}
            value={plannedFor}
            onChange={(event) => setPlannedFor(event.currentTarget.value)}
          />
        </Group>
        <Text fw={600} size="sm">
          {t('planned.compliance')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('planned.complianceHelp')}
        </Text>
        <NumberInput
          label={t('planned.conservativeWeeks')}
          min={0}
          max={520}
          allowDecimal={false}
          value={compliance.conservativeCareWeeks ?? ''}
          onChange={(value) => setCompliance({ ...compliance, conservativeCareWeeks: typeof value === 'number' ? value : null })}
        />
        {(['physicalTherapyCompleted', 'imagingCompleted', 'psychEvaluationCompleted'] as const).map((key) => (
          <Checkbox
            key={key}
            label={t(`planned.${key}`)}
            checked={Boolean(compliance[key])}
            onChange={(event) => setCompliance({ ...compliance, [key]: event.currentTarget.checked })}
          />
        ))}
        <Textarea
          label={t('planned.notes')}
          maxLength={2000}
          value={compliance.notes ?? ''}
          onChange={(event) => setCompliance({ ...compliance, notes: event.currentTarget.value })}
        />
        {save.isError ? <ErrorAlert>{errorText(save.error)}</ErrorAlert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!itemId}>
            {t('planned.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function CohortsRow({ patientId }: { patientId: string }) {
  const { t } = useTranslation('interventions');
  const cohorts = useQuery(interventionQueries.cohorts(patientId));
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={4} mt="xs" data-testid="patient-cohorts">
      <Group justify="space-between">
        <Text fw={600}>{t('cohorts.title')}</Text>
        <Button size="xs" variant="light" onClick={() => setOpen(true)}>
          {t('cohorts.edit')}
        </Button>
      </Group>
      {cohorts.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
      {cohorts.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('cohorts.none')}
        </Text>
      ) : (
        <Group gap="xs">
          {cohorts.data?.map((group) => (
            <Badge key={group.id} variant="outline">
              {group.name}
            </Badge>
          ))}
        </Group>
      )}
      {open ? <CohortsModal patientId={patientId} onClose={() => setOpen(false)} /> : null}
    </Stack>
  );
}
