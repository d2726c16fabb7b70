import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type Control, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { KnownCodes } from '@pathwell/contracts/encounter-imports';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import {
  AUDIENCE_MAX_CODES,
  CODE_MATCH_ANY,
  CODE_MATCH_TIMEFRAME,
  audienceRuleSchema,
  audienceTemplateInputSchema,
  visitCodeSchema,
  type AudiencePreview,
  type AudienceRule,
  type AudienceTemplate,
  type AudienceTemplateKind,
} from '@pathwell/contracts/outreach';
import { isoToMdy } from '@pathwell/contracts/patients';
import { QueryState } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { api, ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { managedListQueries } from '../../managed-lists/managed-lists.api';
import { sessionQueries } from '../../session/session.api';
import { listPath, templateApi, templateKeys, templateQueries, type TemplateBody } from './templates.api';

/** The form's own shape: inputs hold text ('' = not given); `toBody` turns it into the API's. */
type Values = {
  name: string;
  description: string;
  codes: string[];
  codeGroupIds: string[];
  matchMode: '1' | '2' | '3';
  codedFrom: string;
  codedTo: string;
  lastVisitBefore: string;
  lastVisitAfter: string;
  noUpcomingAppointment: boolean;
  ageMin: number | string;
  ageMax: number | string;
  providerIds: string[];
  payorStatusIds: string[];
  studyGroupIds: string[];
  excludeContactedWithinDays: number | string;
};

/** Where a server or zod field path (`rule.codedTo`) shows in this form. */
const fieldOf: Record<string, Path<Values>> = {
  name: 'name',
  description: 'description',
  'rule.codes': 'codes',
  'rule.codeGroupIds': 'codeGroupIds',
  'rule.matchMode': 'matchMode',
  'rule.codedFrom': 'codedFrom',
  'rule.codedTo': 'codedTo',
  'rule.lastVisitBefore': 'lastVisitBefore',
  'rule.lastVisitAfter': 'lastVisitAfter',
  'rule.ageMin': 'ageMin',
  'rule.ageMax': 'ageMax',
  'rule.providerIds': 'providerIds',
  'rule.payorStatusIds': 'payorStatusIds',
  'rule.studyGroupIds': 'studyGroupIds',
  'rule.excludeContactedWithinDays': 'excludeContactedWithinDays',
};
/** `rule.codes.3` → `rule.codes`: an item's error shows on its list. */
const fieldPathOf = (path: string) => fieldOf[path] ?? fieldOf[path.replace(/\.\d+$/, '')];

function defaultsOf(template: AudienceTemplate | undefined): Values {
  const rule = template?.rule;
  const text = (value: string | null | undefined) => value ?? '';
  const number = (value: number | null | undefined) => value ?? '';
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    codes: rule?.codes ?? [],
    codeGroupIds: rule?.codeGroupIds ?? [],
    matchMode: String(rule?.matchMode ?? CODE_MATCH_ANY) as Values['matchMode'],
    codedFrom: text(rule?.codedFrom),
    codedTo: text(rule?.codedTo),
    lastVisitBefore: text(rule?.lastVisitBefore),
    lastVisitAfter: text(rule?.lastVisitAfter),
    noUpcomingAppointment: rule?.noUpcomingAppointment ?? false,
    ageMin: number(rule?.ageMin),
    ageMax: number(rule?.ageMax),
    providerIds: rule?.providerIds ?? [],
    payorStatusIds: rule?.payorStatusIds ?? [],
    studyGroupIds: rule?.studyGroupIds ?? [],
    excludeContactedWithinDays: number(rule?.excludeContactedWithinDays),
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value);
const numberOrNull = (value: number | string) => (value === '' || value === null || value === undefined ? null : Number(value));

function ruleOf(values: Values) {
  const timeframe = values.matchMode === String(CODE_MATCH_TIMEFRAME);
  return {
    codes: values.codes,
    codeGroupIds: values.codeGroupIds,
    matchMode: Number(values.matchMode) as 1 | 2 | 3,
    codedFrom: timeframe ? orNull(values.codedFrom) : null,
    codedTo: timeframe ? orNull(values.codedTo) : null,
    lastVisitBefore: orNull(values.lastVisitBefore),
    lastVisitAfter: orNull(values.lastVisitAfter),
    noUpcomingAppointment: values.noUpcomingAppointment,
    ageMin: numberOrNull(values.ageMin),
    ageMax: numberOrNull(values.ageMax),
    providerIds: values.providerIds,
    payorStatusIds: values.payorStatusIds,
    studyGroupIds: values.studyGroupIds,
    excludeContactedWithinDays: numberOrNull(values.excludeContactedWithinDays),
  };
}

const toBody = (values: Values, kind: AudienceTemplateKind): TemplateBody => ({
  name: values.name,
  kind,
  description: orNull(values.description),
  rule: ruleOf(values),
});

/** /codepulls/templates: build a code pull (`?kind=hotlist`: hot-list) template, `?id=` edits one. */
export function TemplateBuilderPage() {
  const { t } = useTranslation('outreachTemplates');
  const [params] = useSearchParams();
  const templateId = params.get('id');
  const template = useQuery({ ...templateQueries.one(templateId ?? ''), enabled: Boolean(templateId) });
  const requestedKind: AudienceTemplateKind = params.get('kind') === 'hotlist' ? 'hotlist' : 'campaign';
  if (!templateId) return <TemplateBuilder kind={requestedKind} />;
  return (
    <QueryState
      query={template}
      retryLabel={t('list.retry')}
      errorPrefix={t('builder.loadFailed')}
      errorTestId="template-load-error"
    >
      {(loaded) => <TemplateBuilder kind={loaded.kind} template={loaded} />}
    </QueryState>
  );
}

function TemplateBuilder({ kind, template }: { kind: AudienceTemplateKind; template?: AudienceTemplate }) {
  const { t } = useTranslation('outreachTemplates');
  const { t: common } = useTranslation('common');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<Values>({ defaultValues: defaultsOf(template) });
  const { control, register, handleSubmit, setError, clearErrors, formState } = form;
  const [failure, setFailure] = useState<string | null>(null);
  const error = (name: Path<Values>) =>
    translateValidation(formState.errors[name as keyof Values]?.message as string | undefined);

  const save = useMutation({
    mutationFn: (body: TemplateBody) => (template ? templateApi.update(template.id, body) : templateApi.create(body)),
    onSuccess: async (saved) => {
      notify('success', t('builder.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: templateKeys.all });
      await navigate(listPath(kind));
    },
    onError: (problem) => {
      // The server names rule fields by their path in the body (`rule.codeGroupIds.0`).
      let placed = false;
      if (problem instanceof ApiError) {
        for (const [path, key] of Object.entries(problem.fields)) {
          const field = fieldPathOf(path);
          if (field) {
            setError(field, { type: 'server', message: key });
            placed = true;
          }
        }
      }
      setFailure(placed ? null : errorText(problem));
    },
  });

  const submit = handleSubmit((values) => {
    clearErrors();
    setFailure(null);
    const body = toBody(values, kind);
    const parsed = audienceTemplateInputSchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = fieldPathOf(issue.path.join('.'));
        if (field) setError(field, { type: 'validate', message: issue.message });
      }
      return;
    }
    save.mutate(body);
  });

  const title = template ? t(`builder.editTitle.${kind}`) : t(`builder.newTitle.${kind}`);
  return (
    <>
      <PageHeader title={title} description={t(`builder.description.${kind}`)} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <Stack gap="lg">
            <Paper withBorder p="md">
              <Stack gap="sm">
                <TextInput
                  label={t('builder.name')}
                  required
                  maxLength={120}
                  {...register('name')}
                  error={error('name')}
                  data-testid="template-name"
                />
                <Textarea
                  label={t('builder.descriptionLabel')}
                  maxLength={500}
                  autosize
                  minRows={2}
                  {...register('description')}
                  error={error('description')}
                />
              </Stack>
            </Paper>
            <CodesSection control={control} error={error} />
            <FiltersSection control={control} register={register} error={error} />
          </Stack>
          <PreviewPanel control={control} kind={kind} />
        </SimpleGrid>
        {failure ? (
          <ErrorAlert testId="template-save-error">
            {t('builder.saveFailed')} {failure}
          </ErrorAlert>
        ) : null}
        <Group mt="lg" gap="sm">
          <Button type="submit" loading={save.isPending} data-testid="template-save">
            {common('save')}
          </Button>
          <Button component={Link} to={listPath(kind)} variant="default">
            {common('cancel')}
          </Button>
        </Group>
      </form>
    </>
  );
}

type ErrorOf = (name: Path<Values>) => string | undefined;

function CodesSection({ control, error }: { control: Control<Values>; error: ErrorOf }) {
  const { t } = useTranslation('outreachTemplates');
  const groups = useQuery(templateQueries.codeGroups());
  const matchMode = useWatch({ control, name: 'matchMode' });
  const [search, setSearch] = useState('');
  const [badCode, setBadCode] = useState<string | null>(null);
  const [debouncedSearch] = useDebouncedValue(search.trim().toUpperCase(), 300);
  const known = useQuery({
    queryKey: ['appointment-codes', 'known', debouncedSearch],
    queryFn: () => api.get<KnownCodes>('/api/appointmentcodes/known', { query: { search: debouncedSearch }, background: true }),
    enabled: debouncedSearch.length > 0,
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });
  const matchModes = ['1', '2', '3'] as const;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('builder.codesTitle')}
        </Title>
        <Controller
          control={control}
          name="codes"
          render={({ field }) => (
            <TagsInput
              label={t('builder.codes')}
              description={t('builder.codesHint')}
              value={field.value}
              searchValue={search}
              onSearchChange={setSearch}
              data={(known.data?.data ?? []).map((entry) => entry.code).filter((code) => !field.value.includes(code))}
              onChange={(values) => {
                const accepted: string[] = [];
                let rejected: string | null = null;
                for (const value of values) {
                  const parsed = visitCodeSchema.safeParse(value);
                  if (parsed.success) {
                    if (!accepted.includes(parsed.data)) accepted.push(parsed.data);
                  } else rejected = value;
                }
                setBadCode(rejected);
                field.onChange(accepted);
              }}
              onBlur={field.onBlur}
              maxTags={AUDIENCE_MAX_CODES}
              splitChars={[',', ' ', ';']}
              clearable
              error={badCode ? t('builder.codeInvalid', { code: badCode }) : error('codes')}
              data-testid="template-codes"
            />
          )}
        />
        <Controller
          control={control}
          name="codeGroupIds"
          render={({ field }) => (
            <MultiSelect
              label={t('builder.codeGroups')}
              description={groups.isError ? t('builder.codeGroupsFailed') : undefined}
              placeholder={groups.isLoading ? t('builder.loadingOptions') : undefined}
              data={(groups.data ?? []).map((group) => ({ value: group.id, label: `${group.name} (${group.codes.length})` }))}
              value={field.value}
              onChange={field.onChange}
              searchable
              clearable
              nothingFoundMessage={t('builder.nothingFound')}
              error={error('codeGroupIds')}
              comboboxProps={{ withinPortal: true }}
              data-testid="template-code-groups"
            />
          )}
        />
        <Controller
          control={control}
          name="matchMode"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="template-match-mode-label">
                {t('builder.matchMode')}
              </Text>
              <SegmentedControl
                aria-labelledby="template-match-mode-label"
                value={field.value}
                onChange={(value) => field.onChange(value)}
                data={matchModes.map((mode) => ({ value: mode, label: t(`matchModes.${mode}`) }))}
                fullWidth
                data-testid="template-match-mode"
              />
              <Text size="sm">{t(`matchModeHints.${field.value}`)}</Text>
            </Stack>
          )}
        />
        {matchMode === String(CODE_MATCH_TIMEFRAME) ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField control={control} name="codedFrom" label={t('builder.codedFrom')} error={error('codedFrom')} required />
            <DateField control={control} name="codedTo" label={t('builder.codedTo')} error={error('codedTo')} required />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Paper>
  );
}

function DateField({
  control,
  name,
  label,
  error,
  required,
}: {
  control: Control<Values>;
  name: 'codedFrom' | 'codedTo' | 'lastVisitBefore' | 'lastVisitAfter';
  label: string;
  error?: string;
  required?: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextInput
          type="date"
          label={label}
          required={required}
          value={field.value}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          onBlur={field.onBlur}
          error={error}
          data-testid={`template-${name}`}
        />
      )}
    />
  );
}

const payorList = findManagedList('customfield:payorstatus')!;
const studyGroupList = findManagedList('studygroups')!;

function FiltersSection({
  control,
  register,
  error,
}: {
  control: Control<Values>;
  register: ReturnType<typeof useForm<Values>>['register'];
  error: ErrorOf;
}) {
  const { t } = useTranslation('outreachTemplates');
  const providers = useQuery(sessionQueries.providers());
  const payors = useQuery(managedListQueries.options(payorList));
  const cohorts = useQuery(managedListQueries.options(studyGroupList));
  const multi = (
    name: 'providerIds' | 'payorStatusIds' | 'studyGroupIds',
    label: string,
    query: { data?: { value: string; label: string }[]; isLoading: boolean; isError: boolean },
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <MultiSelect
          label={label}
          data={query.data ?? []}
          value={field.value}
          onChange={field.onChange}
          placeholder={query.isLoading ? t('builder.loadingOptions') : undefined}
          description={query.isError ? t('builder.optionsFailed') : undefined}
          searchable
          clearable
          nothingFoundMessage={t('builder.nothingFound')}
          error={error(name)}
          comboboxProps={{ withinPortal: true }}
          data-testid={`template-${name}`}
        />
      )}
    />
  );
  const number = (name: 'ageMin' | 'ageMax' | 'excludeContactedWithinDays', label: string, max: number, min = 0) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          min={min}
          max={max}
          allowDecimal={false}
          allowNegative={false}
          error={error(name)}
          data-testid={`template-${name}`}
        />
      )}
    />
  );
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('builder.filtersTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateField
            control={control}
            name="lastVisitBefore"
            label={t('builder.lastVisitBefore')}
            error={error('lastVisitBefore')}
          />
          <DateField
            control={control}
            name="lastVisitAfter"
            label={t('builder.lastVisitAfter')}
            error={error('lastVisitAfter')}
          />
          {number('ageMin', t('builder.ageMin'), 120)}
          {number('ageMax', t('builder.ageMax'), 120)}
        </SimpleGrid>
        <Checkbox
          label={t('builder.noUpcomingAppointment')}
          {...register('noUpcomingAppointment')}
          data-testid="template-noUpcomingAppointment"
        />
        {multi('providerIds', t('builder.providers'), {
          ...providers,
          data: providers.data?.map((doctor) => ({ value: doctor.id, label: `${doctor.firstName} ${doctor.lastName}` })),
        })}
        {multi('payorStatusIds', t('builder.payorStatuses'), {
          ...payors,
          data: payors.data?.map((item) => ({ value: item.id, label: item.name })),
        })}
        {multi('studyGroupIds', t('builder.cohorts'), {
          ...cohorts,
          data: cohorts.data?.map((item) => ({ value: item.id, label: item.name })),
        })}
        {number('excludeContactedWithinDays', t('builder.excludeContacted'), 730, 1)}
        <Text size="sm">{t('builder.optOutNote')}</Text>
      </Stack>
    </Paper>
  );
}

/** Who the rule selects now, asked again half a second after the rule stops changing. */
function PreviewPanel({ control, kind }: { control: Control<Values>; kind: AudienceTemplateKind }) {
  const { t, i18n } = useTranslation('outreachTemplates');
  const values = useWatch({ control }) as Values;
  const parsed = useMemo(() => audienceRuleSchema.safeParse(ruleOf({ ...defaultsOf(undefined), ...values })), [values]);
  const rule: AudienceRule | null = parsed.success ? parsed.data : null;
  const [debounced] = useDebouncedValue(rule ? JSON.stringify(rule) : null, 500);
  const preview = useQuery({
    ...templateQueries.preview(kind, debounced ? (JSON.parse(debounced) as AudienceRule) : ({} as AudienceRule)),
    enabled: debounced !== null,
  });
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <Paper withBorder p="md" style={{ alignSelf: 'start' }} aria-live="polite" data-testid="template-preview">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('preview.title')}
          </Title>
          {preview.isFetching ? <Loader size="sm" aria-label={t('preview.loading')} /> : null}
        </Group>
        {!rule || debounced === null ? (
          <Text data-testid="template-preview-idle">{t('preview.idle')}</Text>
        ) : preview.isError ? (
          <Stack gap="xs" align="flex-start">
            <ErrorAlert testId="template-preview-error">
              {t('preview.failed')} {errorText(preview.error)}
            </ErrorAlert>
            <Button variant="light" size="xs" onClick={() => void preview.refetch()}>
              {t('list.retry')}
            </Button>
          </Stack>
        ) : !preview.data ? (
          <Text>{t('preview.loading')}</Text>
        ) : (
          <PreviewResult preview={preview.data} kind={kind} count={number.format(preview.data.count)} />
        )}
      </Stack>
    </Paper>
  );
}

function PreviewResult({ preview, kind, count }: { preview: AudiencePreview; kind: AudienceTemplateKind; count: string }) {
  const { t } = useTranslation('outreachTemplates');
  return (
    <Stack gap="sm">
      <Text size="xl" fw={700} data-testid="template-preview-count">
        {t(`preview.count.${kind}`, { count: preview.count, formatted: count })}
      </Text>
      {preview.count === 0 ? (
        <Alert color="gray" variant="light">
          {t('preview.none')}
        </Alert>
      ) : (
        <>
          <Text size="sm">{t('preview.sample', { shown: preview.sample.length })}</Text>
          <Table.ScrollContainer minWidth={0}>
            <Table striped aria-label={t('preview.tableLabel')} data-testid="template-preview-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('preview.columns.name')}</Table.Th>
                  <Table.Th scope="col">{t('preview.columns.dateOfBirth')}</Table.Th>
                  <Table.Th scope="col">{t('preview.columns.lastVisit')}</Table.Th>
                  <Table.Th scope="col">{t('preview.columns.codes')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.sample.map((row) => (
                  <Table.Tr key={row.patientId} data-testid="template-preview-row">
                    <Table.Td>
                      {row.lastName}, {row.firstName}
                    </Table.Td>
                    <Table.Td>{isoToMdy(row.dateOfBirth)}</Table.Td>
                    <Table.Td>{row.lastVisit ? isoToMdy(row.lastVisit) : '—'}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {row.matchedCodes.map((code) => (
                          <Badge key={code} variant="light" color="blue" size="sm">
                            {code}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
