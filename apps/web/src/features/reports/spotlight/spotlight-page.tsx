import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconFileTypePdf, IconMessageHeart, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PAGE_SIZE_DEFAULT } from '@pathwell/contracts/constants';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import {
  SPOTLIGHT_FACTOR_MAX,
  SPOTLIGHT_FACTOR_MIN,
  SPOTLIGHT_FACTOR_STEP,
  SUCCESS_STORY_MAX,
  type SpotlightFilter,
  type SpotlightRow,
} from '@pathwell/contracts/reports-spotlight';
import { formCodes, getInstrument } from '@pathwell/instruments';
import { DataTable, Pager, QueryState } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { errorText } from '../../../lib/error-text';
import { currentLanguage } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { getDoctorId } from '../../../lib/session-storage';
import { managedListQueries } from '../../managed-lists/managed-lists.api';
import { spotlightApi, spotlightKeys, spotlightQueries } from './spotlight.api';
import { ReportConventions } from '../shared/report-conventions';

/** Pain, then the outcome forms whose headline has a published MCID (decision 0045). */
const measureCodes = formCodes.filter((code) => getInstrument(code).mcid !== undefined);
const PAIN = 'pain';

type Draft = { measure: string; factor: number | string; providers: string[]; firstName: string; lastName: string };
const defaultDraft: Draft = { measure: PAIN, factor: 1, providers: [], firstName: '', lastName: '' };

const isoToMdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

function toFilter(draft: Draft, pageNumber: number): SpotlightFilter {
  const doctorId = getDoctorId();
  const factor = typeof draft.factor === 'number' ? draft.factor : Number(draft.factor) || 1;
  return {
    improvementFactor: factor,
    formCode: draft.measure === PAIN ? null : Number(draft.measure),
    referringProviderIds: draft.providers,
    patientFirstName: draft.firstName.trim() || null,
    patientLastName: draft.lastName.trim() || null,
    pageSize: PAGE_SIZE_DEFAULT,
    pageNumber,
    ...(doctorId ? { doctorId } : {}),
  };
}

/** /reports/patientsspotlight: patients who improved by at least the chosen multiple of the measure's MCID. */
export function SpotlightPage() {
  const { t, i18n } = useTranslation('reportsSpotlight');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const [draft, setDraft] = useState<Draft>(defaultDraft);
  const [applied, setApplied] = useState<Draft>(defaultDraft);
  const [pageNumber, setPageNumber] = useState(0);
  const [storyRow, setStoryRow] = useState<SpotlightRow | null>(null);
  const filter = toFilter(applied, pageNumber);
  const page = useQuery(spotlightQueries.page(filter));
  const referrals = useQuery(managedListQueries.options(findManagedList('referrals')!));
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const signed = (value: number) => (value > 0 ? `+${number.format(value)}` : number.format(value));

  const measureOptions = [
    { value: PAIN, label: t('measures.pain') },
    ...measureCodes.map((code) => {
      const name = getInstrument(code).name;
      return { value: String(code), label: (language === 'es' ? name.es : undefined) ?? name.en };
    }),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
    setPageNumber(0);
  };

  const downloadPdf = async (row: SpotlightRow) => {
    try {
      await spotlightApi.downloadPdf(row.patientId, filter.formCode ?? null, currentLanguage());
    } catch (failure) {
      notify('error', errorText(failure));
    }
  };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <ReportConventions />
      <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-label={t('filters')}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <Select
            label={t('fields.measure')}
            data={measureOptions}
            value={draft.measure}
            onChange={(value) => setDraft({ ...draft, measure: value ?? PAIN })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="spotlight-measure"
          />
          <NumberInput
            label={t('fields.factor')}
            description={t('fields.factorHelp')}
            value={draft.factor}
            onChange={(value) => setDraft({ ...draft, factor: value })}
            min={SPOTLIGHT_FACTOR_MIN}
            max={SPOTLIGHT_FACTOR_MAX}
            step={SPOTLIGHT_FACTOR_STEP}
            decimalScale={1}
            clampBehavior="strict"
            data-testid="spotlight-factor"
          />
          <MultiSelect
            label={t('fields.referringProviders')}
            data={(referrals.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
            value={draft.providers}
            onChange={(providers) => setDraft({ ...draft, providers })}
            searchable
            clearable
            placeholder={draft.providers.length === 0 ? t('fields.allProviders') : undefined}
            comboboxProps={{ withinPortal: true }}
            data-testid="spotlight-providers"
          />
          <TextInput
            label={t('fields.firstName')}
            value={draft.firstName}
            maxLength={100}
            onChange={(event) => setDraft({ ...draft, firstName: event.currentTarget.value })}
          />
          <TextInput
            label={t('fields.lastName')}
            value={draft.lastName}
            maxLength={100}
            onChange={(event) => setDraft({ ...draft, lastName: event.currentTarget.value })}
          />
          <Group align="flex-end">
            <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} data-testid="spotlight-search">
              {t('search')}
            </Button>
            <Button
              variant="subtle"
              onClick={() => {
                setDraft(defaultDraft);
                setApplied(defaultDraft);
                setPageNumber(0);
              }}
            >
              {t('reset')}
            </Button>
          </Group>
        </SimpleGrid>
      </Paper>
      <QueryState
        query={page}
        retryLabel={t('retry')}
        errorPrefix={t('loadFailed')}
        loadingLabel={t('loading')}
        errorTestId="spotlight-error"
      >
        {(result) => (
          <Stack gap="xs">
            <Text size="sm" c="dimmed" data-testid="spotlight-summary">
              {t('summary', {
                count: result.totalRecords,
                factor: number.format(filter.improvementFactor ?? 1),
                mcid: number.format(result.measure.mcid),
                direction: result.measure.higherIsBetter ? t('higherBetter') : t('lowerBetter'),
              })}
            </Text>
            <DataTable
              rows={result.data}
              rowKey={(row) => row.patientId}
              rowTestId="spotlight-row"
              minWidth={0}
              ariaLabel={t('title')}
              emptyText={t('empty')}
              emptyTestId="spotlight-empty"
              verticalSpacing="xs"
              footer={
                <Pager
                  totalRecords={result.totalRecords}
                  pageSize={result.pageSize}
                  pageNumber={result.pageNumber}
                  onPage={setPageNumber}
                  ariaLabel={t('pages')}
                />
              }
              columns={[
                {
                  key: 'patient',
                  header: t('columns.patient'),
                  cell: (row) => (
                    <Stack gap={2}>
                      <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`} size="sm" fw={600}>
                        {row.fullName}
                      </Anchor>
                      {row.successStoryShared ? (
                        <Badge color="teal" variant="light" size="sm" miw="max-content" data-testid="spotlight-story-badge">
                          {t('storyShared')}
                        </Badge>
                      ) : null}
                    </Stack>
                  ),
                },
                {
                  key: 'referrer',
                  header: t('columns.referringProvider'),
                  cell: (row) =>
                    row.referringProvider ?? (
                      <Text c="dimmed" size="sm">
                        {t('none')}
                      </Text>
                    ),
                },
                {
                  key: 'baseline',
                  header: t('columns.baseline'),
                  cell: (row) => <ScoreCell score={number.format(row.baseline.score)} date={isoToMdy(row.baseline.date)} />,
                },
                {
                  key: 'latest',
                  header: t('columns.latest'),
                  cell: (row) => <ScoreCell score={number.format(row.latest.score)} date={isoToMdy(row.latest.date)} />,
                },
                {
                  key: 'improvement',
                  header: t('columns.improvement'),
                  cell: (row) => (
                    <Stack gap={0}>
                      <Text size="sm" fw={600} c="teal.9">
                        {signed(row.improvement)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('mcids', { value: number.format(row.improvementInMcids) })}
                      </Text>
                    </Stack>
                  ),
                },
                {
                  key: 'procedures',
                  header: t('columns.procedures'),
                  cell: (row) =>
                    row.procedures.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        {t('none')}
                      </Text>
                    ) : (
                      <Stack gap={0}>
                        {row.procedures.slice(0, 3).map((procedure, index) => (
                          <Text key={index} size="xs" lineClamp={1}>
                            {isoToMdy(procedure.performedOn)} · {procedure.name}
                          </Text>
                        ))}
                        {row.procedures.length > 3 ? (
                          <Text size="xs" c="dimmed">
                            {t('moreProcedures', { count: row.procedures.length - 3 })}
                          </Text>
                        ) : null}
                      </Stack>
                    ),
                },
                {
                  key: 'actions',
                  headerLabel: t('columns.actions'),
                  cell: (row) => (
                    <Group gap={6} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconFileTypePdf size={14} aria-hidden />}
                        aria-label={t('pdfOf', { name: row.fullName })}
                        onClick={() => void downloadPdf(row)}
                      >
                        {t('pdf')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconMessageHeart size={14} aria-hidden />}
                        aria-label={t('storyOf', { name: row.fullName })}
                        onClick={() => setStoryRow(row)}
                      >
                        {t('story')}
                      </Button>
                    </Group>
                  ),
                },
              ]}
            />
          </Stack>
        )}
      </QueryState>
      <Modal opened={storyRow !== null} onClose={() => setStoryRow(null)} title={t('storyModal.title')} size="lg">
        {storyRow ? <SuccessStoryForm row={storyRow} onDone={() => setStoryRow(null)} /> : null}
      </Modal>
    </>
  );
}

function ScoreCell({ score, date }: { score: string; date: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {score}
      </Text>
      <Text size="xs" c="dimmed">
        {date}
      </Text>
    </Stack>
  );
}

/** The patient's words and whether they agreed to share them; the PDF prints them only when they did. */
function SuccessStoryForm({ row, onDone }: { row: SpotlightRow; onDone: () => void }) {
  const { t } = useTranslation('reportsSpotlight');
  const queryClient = useQueryClient();
  const [story, setStory] = useState(row.successStory ?? '');
  const [shared, setShared] = useState(row.successStoryShared);
  const save = useMutation({
    mutationFn: () => spotlightApi.saveStory({ patientId: row.patientId, shared, story: story.trim() }),
    onSuccess: () => {
      notify('success', t('storyModal.saved'));
      void queryClient.invalidateQueries({ queryKey: spotlightKeys.all });
      onDone();
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <Text size="sm">{t('storyModal.patient', { name: row.fullName })}</Text>
        <Textarea
          label={t('storyModal.story')}
          description={t('storyModal.storyHelp')}
          value={story}
          onChange={(event) => setStory(event.currentTarget.value)}
          maxLength={SUCCESS_STORY_MAX}
          autosize
          minRows={4}
          maxRows={10}
          data-testid="spotlight-story-text"
        />
        <Checkbox
          label={t('storyModal.shared')}
          description={t('storyModal.sharedHelp')}
          checked={shared}
          onChange={(event) => setShared(event.currentTarget.checked)}
          data-testid="spotlight-story-shared"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('storyModal.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="spotlight-story-save">
            {t('storyModal.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
