import { Anchor, Badge, Button, Divider, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FormScoreSeries } from '@pathwell/contracts/form-responses';
import type { FormResponseSummary } from '@pathwell/contracts/patient-links';
import { ErrorAlert } from '../../components/error-alert';
import { CriticalFindingBadge } from '../critical-findings/critical-findings';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { bandText, instrumentInfo } from './instrument-info';
import { PatientLinks } from './patient-links';
import { formatScore, outcomeFormName } from './questionnaire-text';
import { questionnaireQueries, responsePath } from './questionnaires.api';
import { ScoreCharts } from './score-charts';
import { SendQuestionnaireDialog, type PatientAppointmentChoice } from './send-questionnaire-dialog';

function maximumFor(response: FormResponseSummary, series: FormScoreSeries[]): number | null {
  const info = instrumentInfo(response.formCode);
  if (info) return info.maximum;
  const match = series.find((item) =>
    response.formCode === null ? item.customFormId === response.customFormId : item.formCode === response.formCode,
  );
  return match?.maximum ?? null;
}

function ResponsesTable({
  responses,
  series,
  timeZone,
}: {
  responses: FormResponseSummary[];
  series: FormScoreSeries[];
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('questionnaires');
  return (
    <Table.ScrollContainer minWidth={460}>
      <Table verticalSpacing={6} highlightOnHover data-testid="form-responses">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('panel.form')}</Table.Th>
            <Table.Th scope="col">{t('panel.date')}</Table.Th>
            <Table.Th scope="col">{t('panel.score')}</Table.Th>
            <Table.Th scope="col">{t('panel.band')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {responses.map((response) => {
            const name = response.formCode === null ? response.formTitle : outcomeFormName(response.formCode, i18n.language);
            const maximum = maximumFor(response, series);
            const decimals = instrumentInfo(response.formCode)?.headline.decimals;
            const band = bandText(response.formCode, response.band, i18n.language);
            return (
              <Table.Tr key={response.id} data-testid="form-response">
                <Table.Td>
                  <Anchor component={Link} to={responsePath(response)}>
                    {name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatClinicDate(response.submittedAt, timeZone)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {response.notScored
                    ? t('notScored.short')
                    : response.headlineScore === null
                      ? '—'
                      : maximum === null
                        ? formatScore(response.headlineScore, decimals)
                        : `${formatScore(response.headlineScore, decimals)} / ${maximum}`}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="wrap">
                    {band ? <Badge variant="light">{band}</Badge> : null}
                    <CriticalFindingBadge findings={response.criticalFindings} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The patient dashboard's questionnaire panel: responses, each form's scores over time, links sent. */
export function QuestionnairesPanel({
  patientId,
  appointments,
  timeZone,
}: {
  patientId: string;
  appointments: PatientAppointmentChoice[];
  timeZone: string;
}) {
  const { t } = useTranslation('questionnaires');
  const titleId = useId();
  const [sending, setSending] = useState(false);
  const query = useQuery(questionnaireQueries.patientResponses(patientId));

  let results;
  if (query.isError) {
    results = (
      <Stack gap="xs" align="flex-start">
        <ErrorAlert testId="form-responses-error">{errorText(query.error)}</ErrorAlert>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={() => void query.refetch()}
        >
          {t('retry')}
        </Button>
      </Stack>
    );
  } else if (!query.data) {
    results = <Loader size="sm" aria-label={t('common:loading')} />;
  } else if (query.data.data.length === 0) {
    results = <Text c="dimmed">{t('panel.empty')}</Text>;
  } else {
    results = (
      <>
        <ResponsesTable responses={query.data.data} series={query.data.series} timeZone={timeZone} />
        <ScoreCharts series={query.data.series} timeZone={timeZone} />
      </>
    );
  }

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="questionnaire-panel">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id={titleId}>
            {t('panel.title')}
          </Title>
          <Button size="xs" leftSection={<IconSend size={14} aria-hidden />} onClick={() => setSending(true)}>
            {t('panel.send')}
          </Button>
        </Group>
        {results}
        <Divider />
        <PatientLinks patientId={patientId} timeZone={timeZone} />
      </Stack>
      <SendQuestionnaireDialog
        opened={sending}
        onClose={() => setSending(false)}
        patientId={patientId}
        appointments={appointments}
      />
    </Paper>
  );
}
