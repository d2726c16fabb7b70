import { Anchor, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowDownRight, IconArrowRight, IconArrowUpRight, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { takesAnswer, visibleQuestions } from '@pathwell/contracts/form-logic';
import type { FormResponseDetail } from '@pathwell/contracts/patient-links';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ApiError } from '../../lib/api-client';
import { formatClinicDate, formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { CriticalFindingsPanel } from '../critical-findings/critical-findings';
import { AnswerText } from './answer-text';
import { bandText, instrumentInfo } from './instrument-info';
import { formatScore, languageName, localized } from './questionnaire-text';
import { questionnaireQueries, responsePath } from './questionnaires.api';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const titleId = useId();
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function ChangeFromPrevious({ response }: { response: FormResponseDetail }) {
  const { t } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;
  const previous = response.previous;
  if (!previous) return <Text c="dimmed">{t('result.firstResponse')}</Text>;
  const when = formatClinicDate(previous.submittedAt, timeZone);
  if (previous.change === null) return <Text c="dimmed">{t('result.changeUnknown', { date: when })}</Text>;
  const Arrow = previous.change > 0 ? IconArrowUpRight : previous.change < 0 ? IconArrowDownRight : IconArrowRight;
  const direction = previous.change === 0 || previous.better === null ? 'same' : previous.better ? 'better' : 'worse';
  const color = direction === 'better' ? 'teal' : direction === 'worse' ? 'red' : 'gray';
  const decimals = instrumentInfo(response.formCode)?.headline.decimals;
  const amount = formatScore(Math.abs(previous.change), decimals);
  return (
    <Stack gap={6} data-testid="response-change">
      <Group gap="xs" wrap="wrap">
        <Arrow size={20} color={`var(--mantine-color-${color}-7)`} aria-hidden />
        <Text fw={600} c={`${color}.8`}>
          {t(`result.change.${direction}`, {
            amount: previous.change > 0 ? `+${amount}` : previous.change < 0 ? `−${amount}` : amount,
          })}
        </Text>
        {previous.meetsMcid ? (
          <Badge color="grape" variant="light" data-testid="mcid-badge">
            {t('result.mcid')}
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('result.since', { date: when, score: formatScore(previous.headlineScore, decimals) })}{' '}
        <Anchor component={Link} to={responsePath({ id: previous.id, kind: response.kind })} size="sm">
          {t('result.openPrevious')}
        </Anchor>
      </Text>
      {previous.meetsMcid === false ? (
        <Text size="sm" c="dimmed">
          {t('result.belowMcid')}
        </Text>
      ) : null}
    </Stack>
  );
}

function Headline({ response }: { response: FormResponseDetail }) {
  const { t, i18n } = useTranslation('questionnaires');
  const info = instrumentInfo(response.formCode);
  const band = bandText(response.formCode, response.band, i18n.language);
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {info ? localized(info.headline.label, i18n.language) : t('result.score')}
      </Text>
      <Group gap="sm" align="baseline">
        {response.notScored ? (
          <Text fw={600} data-testid="headline-not-scored">
            {t('notScored.long')}
          </Text>
        ) : null}
        <Text fz={36} fw={700} lh={1} data-testid="headline-score" hidden={Boolean(response.notScored)}>
          {formatScore(response.headlineScore, info?.headline.decimals)}
          {info ? (
            <Text span fz="lg" c="dimmed" fw={500}>
              {` / ${info.maximum}`}
            </Text>
          ) : null}
        </Text>
        {band ? (
          <Badge size="lg" variant="light" data-testid="headline-band">
            {band}
          </Badge>
        ) : null}
      </Group>
    </Stack>
  );
}

function ScoresTable({ response }: { response: FormResponseDetail }) {
  const { t, i18n } = useTranslation('questionnaires');
  const info = instrumentInfo(response.formCode);
  const rows = info
    ? info.scores.map((score) => {
        const value = response.scores[score.key];
        const shown = score.categorical
          ? (bandText(response.formCode, value ?? null, i18n.language, score.key) ?? formatScore(value))
          : formatScore(value, score.decimals);
        return { key: score.key, label: localized(score.label, i18n.language), value: shown };
      })
    : Object.entries(response.scores).map(([key, value]) => ({
        key,
        label: key === 'total' ? t('result.total') : key,
        value: formatScore(value),
      }));
  if (rows.length === 0) return <Text c="dimmed">{t('result.noScores')}</Text>;
  return (
    <Table data-testid="scores-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('result.scoreName')}</Table.Th>
          <Table.Th scope="col">{t('result.scoreValue')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Td>{row.label}</Table.Td>
            <Table.Td>{row.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Answers({ response }: { response: FormResponseDetail }) {
  const { t } = useTranslation('questionnaires');
  const language = response.language;
  const questions = visibleQuestions(response.form, response.answers).filter(takesAnswer);
  const sectionTitle = (sectionId: string | undefined) => {
    const section = response.form.sections.find((candidate) => candidate.id === sectionId);
    return section ? localized(section.title, language) : null;
  };
  return (
    <Stack gap="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} lang={language}>
      {questions.map((question, index) => {
        const heading = question.sectionId !== questions[index - 1]?.sectionId ? sectionTitle(question.sectionId) : null;
        return (
          <li key={question.id} data-testid="response-answer">
            {heading ? (
              <Text fw={700} mb={6}>
                {heading}
              </Text>
            ) : null}
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {t('result.questionNumber', { number: index + 1 })} {localized(question.text, language)}
            </Text>
            <AnswerText question={question} value={response.answers[question.id]} language={language} />
          </li>
        );
      })}
    </Stack>
  );
}

function ResponseBody({ response }: { response: FormResponseDetail }) {
  const { t } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;
  // A custom form whose options carry no points has nothing to score: no empty score panels.
  const scored = response.kind === 'instrument' || response.headlineScore !== null || Object.keys(response.scores).length > 0;
  return (
    <Stack gap="md">
      <CriticalFindingsPanel findings={response.criticalFindings} />
      <Paper withBorder radius="lg" p="lg" data-testid="response-summary">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap={6}>
            <Text>
              {t('result.patient')}{' '}
              <Anchor component={Link} to={`/patients/patientdashboard/${response.patientId}`} fw={600}>
                {response.patientName}
              </Anchor>
            </Text>
            <Text size="sm">{t('result.version', { version: response.version })}</Text>
            <Text size="sm">{t('result.language', { language: languageName(response.language) })}</Text>
            <Text size="sm">
              {t('result.submitted')}{' '}
              <time dateTime={response.submittedAt}>{formatClinicDateTime(response.submittedAt, timeZone)}</time>
            </Text>
          </Stack>
          {scored ? (
            <Stack gap="md">
              <Headline response={response} />
              <ChangeFromPrevious response={response} />
            </Stack>
          ) : null}
        </SimpleGrid>
      </Paper>
      {scored ? (
        <Section title={t('result.scores')} testId="response-scores">
          <ScoresTable response={response} />
        </Section>
      ) : null}
      <Section title={t('result.answers')} testId="response-answers">
        <Answers response={response} />
      </Section>
      {response.form.credit ? (
        <Text size="xs" c="dimmed">
          {localized(response.form.credit, response.language)}
        </Text>
      ) : null}
    </Stack>
  );
}

/** /formresponse/result/:id and /customformresponse/view/:id: one submitted questionnaire for staff. */
export function FormResponseView({ id }: { id: string }) {
  const { t } = useTranslation('questionnaires');
  const query = useQuery(questionnaireQueries.response(id));

  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <>
        <PageHeader title={t('result.pageTitle')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="response-error">{missing ? t('result.notFound') : errorText(query.error)}</ErrorAlert>
          {missing ? null : (
            <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void query.refetch()}>
              {t('retry')}
            </Button>
          )}
        </Stack>
      </>
    );
  }
  if (!query.data) {
    return (
      <>
        <PageHeader title={t('result.pageTitle')} />
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      </>
    );
  }
  const response = query.data;
  return (
    <>
      <PageHeader title={response.formTitle} description={t('result.pageTitle')} />
      <ResponseBody response={response} />
    </>
  );
}
