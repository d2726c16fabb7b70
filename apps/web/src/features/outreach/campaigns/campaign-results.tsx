import { BarChart } from '@mantine/charts';
import { Anchor, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CampaignSummary } from '@pathwell/contracts/campaigns';
import { useSession } from '../../../app/session-context';
import { EmptyText, QueryState } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatClinicDate } from '../../../lib/dates';
import { translateValidation } from '../../../lib/i18n';
import { campaignQueries } from './campaigns.api';
import { campaignPath, formatNumber, rateText } from './campaign-shared';

const steps = ['sent', 'delivered', 'clicked', 'replied', 'booked'] as const;
const stepColors: Record<(typeof steps)[number], string> = {
  sent: 'blue.6',
  delivered: 'cyan.7',
  clicked: 'grape.6',
  replied: 'orange.6',
  booked: 'teal.7',
};

type Range = { from: string; to: string };

/**
 * /patientcampaigns/results (issue #15 §3; System Managers, Admins and Doctors): each campaign's funnel
 * (sent, delivered, clicked, replied, booked) side by side, and the same numbers with their rates below.
 */
export function CampaignResults() {
  const { t } = useTranslation('outreachCampaigns');
  const session = useSession();
  const [draft, setDraft] = useState<Range>({ from: '', to: '' });
  const [range, setRange] = useState<Range>({ from: '', to: '' });
  const [rangeError, setRangeError] = useState<string | null>(null);
  const results = useQuery(campaignQueries.results(range.from, range.to));
  // Doctors see the results only: the campaigns themselves are for System Managers and Admins.
  const linksCampaigns = session.user.role === 'SystemManager' || session.user.role === 'Admin';

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setRangeError(translateValidation('dateRangeInvalid') ?? null);
      return;
    }
    setRangeError(null);
    setRange(draft);
  };

  return (
    <>
      <PageHeader title={t('results.title')} description={t('results.description')} />
      <Paper withBorder radius="lg" p="md" mb="lg" component="form" onSubmit={apply} noValidate aria-label={t('results.filters')}>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label={t('results.from')}
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
            w={200}
            data-testid="results-from"
          />
          <TextInput
            type="date"
            label={t('results.to')}
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
            error={rangeError}
            w={200}
            data-testid="results-to"
          />
          <Button type="submit" mt={25} data-testid="results-apply">
            {t('results.apply')}
          </Button>
        </Group>
        <Text size="sm" mt="xs">
          {t('results.rangeHelp')}
        </Text>
      </Paper>
      <QueryState
        query={results}
        retryLabel={t('retry')}
        errorPrefix={t('results.loadFailed')}
        errorTestId="results-error"
        loadingLabel={t('loading')}
        retryIcon
        keepDataOnError
      >
        {({ data }) =>
          data.length === 0 ? (
            <EmptyText testId="results-empty">{t('results.empty')}</EmptyText>
          ) : (
            <ResultsView campaigns={data} linksCampaigns={linksCampaigns} />
          )
        }
      </QueryState>
    </>
  );
}

function ResultsView({ campaigns, linksCampaigns }: { campaigns: CampaignSummary[]; linksCampaigns: boolean }) {
  const { t } = useTranslation('outreachCampaigns');
  const timeZone = useSession().instance.timeZoneId;
  const chartData = campaigns.map((campaign) => ({
    campaign: campaign.name,
    ...Object.fromEntries(steps.map((step) => [step, campaign.funnel[step]])),
  }));
  const total = (key: (typeof steps)[number] | 'recipients') =>
    campaigns.reduce((sum, campaign) => sum + campaign.funnel[key], 0);

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p="md">
        <Title order={2} size="h4" mb="sm">
          {t('results.chartTitle')}
        </Title>
        <div role="img" aria-label={t('results.chartLabel')} data-testid="results-chart">
          <BarChart
            h={300}
            data={chartData}
            dataKey="campaign"
            withLegend
            tickLine="y"
            series={steps.map((step) => ({ name: step, label: t(`funnel.${step}`), color: stepColors[step] }))}
          />
        </div>
      </Paper>
      <Paper withBorder radius="lg" p="md">
        <Table.ScrollContainer minWidth={860}>
          <Table striped verticalSpacing="xs" data-testid="results-table" captionSide="top">
            <Table.Caption>
              <Text fw={600} ta="left">
                {t('results.tableTitle')}
              </Text>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('columns.name')}</Table.Th>
                <Table.Th scope="col">{t('columns.approved')}</Table.Th>
                <Table.Th scope="col">{t('funnel.recipients')}</Table.Th>
                {steps.map((step) => (
                  <Table.Th scope="col" key={step}>
                    {t(`funnel.${step}`)}
                  </Table.Th>
                ))}
                <Table.Th scope="col">{t('results.replyRate')}</Table.Th>
                <Table.Th scope="col">{t('results.bookRate')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {campaigns.map((campaign) => (
                <Table.Tr key={campaign.id} data-testid="results-row">
                  <Table.Th scope="row" fw={500}>
                    {linksCampaigns ? (
                      <Anchor component={Link} to={campaignPath(campaign)} size="sm">
                        {campaign.name}
                      </Anchor>
                    ) : (
                      campaign.name
                    )}
                  </Table.Th>
                  <Table.Td>{campaign.approvedAt ? formatClinicDate(campaign.approvedAt, timeZone) : '—'}</Table.Td>
                  <Table.Td>{formatNumber(campaign.funnel.recipients)}</Table.Td>
                  {steps.map((step) => (
                    <Table.Td key={step} data-testid={`results-${step}`}>
                      {formatNumber(campaign.funnel[step])}
                    </Table.Td>
                  ))}
                  <Table.Td data-testid="results-reply-rate">{rateText(campaign.funnel.replied, campaign.funnel.sent)}</Table.Td>
                  <Table.Td data-testid="results-book-rate">{rateText(campaign.funnel.booked, campaign.funnel.sent)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            {campaigns.length > 1 ? (
              <Table.Tfoot>
                <Table.Tr data-testid="results-total">
                  <Table.Th scope="row">{t('results.total')}</Table.Th>
                  <Table.Td />
                  <Table.Td>{formatNumber(total('recipients'))}</Table.Td>
                  {steps.map((step) => (
                    <Table.Td key={step}>{formatNumber(total(step))}</Table.Td>
                  ))}
                  <Table.Td>{rateText(total('replied'), total('sent'))}</Table.Td>
                  <Table.Td>{rateText(total('booked'), total('sent'))}</Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            ) : null}
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
