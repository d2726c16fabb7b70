import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  Loader,
  Menu,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconBraces, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  CAMPAIGN_ATTRIBUTION_DAYS_DEFAULT,
  CAMPAIGN_ATTRIBUTION_DAYS_MAX,
  CAMPAIGN_EMAIL_MAX,
  CAMPAIGN_TEXT_MAX,
  CAMPAIGN_THROTTLE_DEFAULT,
  CAMPAIGN_THROTTLE_MAX,
  campaignInputSchema,
  fillMergeFields,
  type CampaignDetail,
  type CampaignFormValues,
  type CampaignInput,
} from '@pathwell/contracts/campaigns';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { campaignChannels, campaignMergeFields, type CampaignChannel } from '@pathwell/contracts/outreach';
import { useSession } from '../../../app/session-context';
import { QueryState } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { campaignApi, campaignKeys, campaignQueries } from './campaigns.api';
import { campaignPath, formatNumber } from './campaign-shared';
import { countSms } from './sms-segments';

type Values = CampaignFormValues;
type FieldName = keyof Values;
const fieldNames: readonly FieldName[] = [
  'name',
  'templateId',
  'channels',
  'messageEn',
  'messageEs',
  'subjectEn',
  'subjectEs',
  'instructionEn',
  'instructionEs',
  'linkUrl',
  'scheduledAt',
  'throttlePerMinute',
  'attributionDays',
];

function defaultsFrom(campaign: CampaignDetail | undefined): Values {
  return {
    name: campaign?.name ?? '',
    templateId: campaign?.templateId ?? '',
    channels: campaign?.channels ?? ['sms'],
    messageEn: campaign?.messageEn ?? '',
    messageEs: campaign?.messageEs ?? '',
    subjectEn: campaign?.subjectEn ?? '',
    subjectEs: campaign?.subjectEs ?? '',
    instructionEn: campaign?.instructionEn ?? '',
    instructionEs: campaign?.instructionEs ?? '',
    linkUrl: campaign?.linkUrl ?? null,
    scheduledAt: campaign?.scheduledAt ?? null,
    throttlePerMinute: campaign?.throttlePerMinute ?? CAMPAIGN_THROTTLE_DEFAULT,
    attributionDays: campaign?.attributionDays ?? CAMPAIGN_ATTRIBUTION_DAYS_DEFAULT,
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as the value of a datetime-local input on the clinic's clock ('2026-03-02T09:30'). */
export function clinicLocalInput(iso: string, timeZone: string): string {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return '';
  const clock = clinicClock(time, timeZone);
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** A datetime-local value read on the clinic's clock, as an ISO instant; '' when unreadable. */
export function instantOfClinicInput(local: string, timeZone: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!match) return '';
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  return instantOfClinicTime(year, month, day, timeZone, hour, minute).toISOString();
}

/** An empty link box means no link (the contract checks any text given as an https address). */
const noLink = (value: string | null) => (value?.trim() ? value : null);

/** The server names a field by its path ('channels.0'); the form shows it on the field ('channels'). */
function formFieldOf(path: string): FieldName | null {
  const head = path.split('.')[0] as FieldName;
  return fieldNames.includes(head) ? head : null;
}

const errorOf = (errors: FieldErrors<Values>, name: FieldName) => translateValidation(errors[name]?.message);

/**
 * /patientcampaigns/newcampaign and /editcampaign/:id (issue #15 §3): a bilingual text and/or email
 * to a code pull audience, checked with the same contract as the server.
 */
export function CampaignForm({ campaign }: { campaign?: CampaignDetail }) {
  const { t } = useTranslation('outreachCampaigns');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useQuery(campaignQueries.templates());
  const [failure, setFailure] = useState<string | null>(null);
  const [scheduleMode, setScheduleMode] = useState<'now' | 'later'>(campaign?.scheduledAt ? 'later' : 'now');
  const [scheduleLocal, setScheduleLocal] = useState(() =>
    campaign?.scheduledAt ? clinicLocalInput(campaign.scheduledAt, timeZone) : '',
  );
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, CampaignInput>({
    resolver: zodResolver(campaignInputSchema),
    defaultValues: defaultsFrom(campaign),
  });
  const [templateId, channels, instructionEn, instructionEs] = useWatch({
    control,
    name: ['templateId', 'channels', 'instructionEn', 'instructionEs'],
  });
  const usesSms = channels.includes('sms');
  const usesEmail = channels.includes('email');

  const onSubmit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      const saved = campaign ? await campaignApi.update(campaign.id, input) : await campaignApi.create(input);
      queryClient.setQueryData(campaignKeys.one(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
      notify('success', t('form.saved'));
      void navigate(`/patientcampaigns/${saved.id}`);
    } catch (error) {
      let placed = false;
      if (error instanceof ApiError) {
        for (const [path, key] of Object.entries(error.fields)) {
          const field = formFieldOf(path);
          if (field) {
            setError(field, { type: 'server', message: key });
            placed = true;
          }
        }
      }
      setFailure(placed ? `${errorText(error)} ${t('form.checkFields')}` : errorText(error));
    }
  });

  const setSchedule = (mode: 'now' | 'later', local: string) => {
    setScheduleMode(mode);
    setScheduleLocal(local);
    setValue('scheduledAt', mode === 'now' ? null : instantOfClinicInput(local, timeZone), { shouldDirty: true });
  };

  const sample = (language: 'en' | 'es') => ({
    firstName: t('form.sampleFirstName'),
    clinic: session.instance.name,
    provider: t('form.sampleProvider'),
    instruction: (language === 'en' ? instructionEn : instructionEs) ?? '',
    link: `${window.location.origin}/l/Ab12Cd34`,
  });

  return (
    <>
      <PageHeader
        title={campaign ? t('form.editTitle', { name: campaign.name }) : t('form.newTitle')}
        description={t('form.description')}
      />
      <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="campaign-form">
        <Stack gap="lg">
          {failure ? <ErrorAlert testId="campaign-form-error">{failure}</ErrorAlert> : null}
          <Paper withBorder radius="lg" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                {t('form.audienceSection')}
              </Title>
              <TextInput
                label={t('form.name')}
                required
                maxLength={120}
                error={errorOf(errors, 'name')}
                data-testid="campaign-name"
                {...register('name')}
              />
              <Group align="flex-start" gap="lg" wrap="wrap">
                <Stack gap={4} w={360}>
                  <Controller
                    control={control}
                    name="templateId"
                    render={({ field }) => (
                      <Select
                        label={t('form.template')}
                        description={t('form.templateHelp')}
                        required
                        data={(templates.data?.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
                        value={field.value || null}
                        onChange={(value) => field.onChange(value ?? '')}
                        onBlur={field.onBlur}
                        ref={field.ref}
                        searchable
                        nothingFoundMessage={t('form.noTemplates')}
                        placeholder={templates.isPending ? t('loading') : t('form.templatePlaceholder')}
                        error={errorOf(errors, 'templateId') ?? (templates.isError ? errorText(templates.error) : undefined)}
                        data-testid="campaign-template"
                      />
                    )}
                  />
                  <Anchor component={Link} to="/codepulls/templates" size="sm">
                    {t('form.createTemplate')}
                  </Anchor>
                </Stack>
                <Controller
                  control={control}
                  name="channels"
                  render={({ field }) => (
                    <Checkbox.Group
                      label={t('form.channels')}
                      required
                      value={field.value}
                      onChange={(value) => field.onChange(value as CampaignChannel[])}
                      error={errorOf(errors, 'channels')}
                    >
                      <Group gap="lg" mt={8}>
                        {campaignChannels.map((channel) => (
                          <Checkbox
                            key={channel}
                            value={channel}
                            label={t(`channels.${channel}`)}
                            data-testid={`campaign-channel-${channel}`}
                          />
                        ))}
                      </Group>
                    </Checkbox.Group>
                  )}
                />
              </Group>
              <AudienceBox templateId={templateId} channels={channels} />
            </Stack>
          </Paper>

          <Paper withBorder radius="lg" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                {t('form.messageSection')}
              </Title>
              <Text size="sm">{t('form.mergeHelp')}</Text>
              {usesEmail ? (
                <SimpleGrid cols={{ base: 1, md: 2 }}>
                  <TextInput
                    label={t('form.subjectEn')}
                    required
                    maxLength={200}
                    error={errorOf(errors, 'subjectEn')}
                    data-testid="campaign-subject-en"
                    {...register('subjectEn')}
                  />
                  <TextInput
                    label={t('form.subjectEs')}
                    required
                    maxLength={200}
                    error={errorOf(errors, 'subjectEs')}
                    data-testid="campaign-subject-es"
                    {...register('subjectEs')}
                  />
                </SimpleGrid>
              ) : null}
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <MessageField
                  control={control}
                  name="messageEn"
                  label={usesSms ? t('form.messageEn') : t('form.emailBodyEn')}
                  error={errorOf(errors, 'messageEn')}
                  usesSms={usesSms}
                  sample={sample('en')}
                  testId="campaign-message-en"
                />
                <MessageField
                  control={control}
                  name="messageEs"
                  label={usesSms ? t('form.messageEs') : t('form.emailBodyEs')}
                  error={errorOf(errors, 'messageEs')}
                  usesSms={usesSms}
                  sample={sample('es')}
                  testId="campaign-message-es"
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <TextInput
                  label={t('form.instructionEn')}
                  description={t('form.instructionHelp')}
                  maxLength={300}
                  error={errorOf(errors, 'instructionEn')}
                  data-testid="campaign-instruction-en"
                  {...register('instructionEn')}
                />
                <TextInput
                  label={t('form.instructionEs')}
                  description={t('form.instructionHelp')}
                  maxLength={300}
                  error={errorOf(errors, 'instructionEs')}
                  data-testid="campaign-instruction-es"
                  {...register('instructionEs')}
                />
              </SimpleGrid>
              <TextInput
                label={t('form.linkUrl')}
                description={t('form.linkHelp')}
                placeholder="https://"
                type="url"
                maxLength={500}
                error={errors.linkUrl?.message === 'urlInvalid' ? t('form.linkInvalid') : errorOf(errors, 'linkUrl')}
                data-testid="campaign-link"
                {...register('linkUrl', { setValueAs: noLink })}
              />
            </Stack>
          </Paper>

          <Paper withBorder radius="lg" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                {t('form.sendingSection')}
              </Title>
              <Radio.Group
                label={t('form.schedule')}
                description={t('form.scheduleHelp')}
                value={scheduleMode}
                onChange={(value) => setSchedule(value as 'now' | 'later', scheduleLocal)}
              >
                <Group gap="lg" mt={8}>
                  <Radio value="now" label={t('form.scheduleNow')} data-testid="campaign-schedule-now" />
                  <Radio value="later" label={t('form.scheduleLater')} data-testid="campaign-schedule-later" />
                </Group>
              </Radio.Group>
              {scheduleMode === 'later' ? (
                <TextInput
                  type="datetime-local"
                  label={t('form.scheduledAt')}
                  value={scheduleLocal}
                  onChange={(event) => setSchedule('later', event.currentTarget.value)}
                  error={
                    errors.scheduledAt?.message === 'dateInvalid' ? t('form.scheduledAtInvalid') : errorOf(errors, 'scheduledAt')
                  }
                  w={280}
                  data-testid="campaign-scheduled-at"
                />
              ) : null}
              <Group gap="lg" align="flex-start">
                <Controller
                  control={control}
                  name="throttlePerMinute"
                  render={({ field }) => (
                    <NumberInput
                      label={t('form.throttle')}
                      description={t('form.throttleHelp')}
                      min={1}
                      max={CAMPAIGN_THROTTLE_MAX}
                      allowDecimal={false}
                      value={Number.isNaN(field.value) ? '' : field.value}
                      onChange={(value) => field.onChange(typeof value === 'number' ? value : Number.NaN)}
                      error={errorOf(errors, 'throttlePerMinute')}
                      w={260}
                      data-testid="campaign-throttle"
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="attributionDays"
                  render={({ field }) => (
                    <NumberInput
                      label={t('form.attribution')}
                      description={t('form.attributionHelp')}
                      min={1}
                      max={CAMPAIGN_ATTRIBUTION_DAYS_MAX}
                      allowDecimal={false}
                      value={Number.isNaN(field.value) ? '' : field.value}
                      onChange={(value) => field.onChange(typeof value === 'number' ? value : Number.NaN)}
                      error={errorOf(errors, 'attributionDays')}
                      w={260}
                      data-testid="campaign-attribution"
                    />
                  )}
                />
              </Group>
            </Stack>
          </Paper>

          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              component={Link}
              to={campaign ? `/patientcampaigns/${campaign.id}` : '/patientcampaigns/dashboard'}
            >
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting} data-testid="campaign-save">
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}

/** A message box with the merge-field menu and, for texts, its length and SMS parts. */
function MessageField({
  control,
  name,
  label,
  error,
  usesSms,
  sample,
  testId,
}: {
  control: Control<Values, unknown, CampaignInput>;
  name: 'messageEn' | 'messageEs';
  label: string;
  error: string | undefined;
  usesSms: boolean;
  sample: Parameters<typeof fillMergeFields>[1];
  testId: string;
}) {
  const { t } = useTranslation('outreachCampaigns');
  const box = useRef<HTMLTextAreaElement | null>(null);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const insert = (merge: string) => {
          const element = box.current;
          const text = field.value;
          const start = element?.selectionStart ?? text.length;
          const end = element?.selectionEnd ?? text.length;
          const token = `{${merge}}`;
          field.onChange(text.slice(0, start) + token + text.slice(end));
          requestAnimationFrame(() => {
            element?.focus();
            element?.setSelectionRange(start + token.length, start + token.length);
          });
        };
        return (
          <Stack gap={4}>
            <Textarea
              label={label}
              required
              autosize
              minRows={5}
              maxLength={CAMPAIGN_EMAIL_MAX}
              value={field.value}
              onChange={(event) => field.onChange(event.currentTarget.value)}
              onBlur={field.onBlur}
              ref={(element) => {
                box.current = element;
                field.ref(element);
              }}
              error={error}
              data-testid={testId}
            />
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Menu position="bottom-start" withinPortal>
                <Menu.Target>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconBraces size={14} aria-hidden />}
                    aria-label={t('form.insertFieldInto', { field: label })}
                    data-testid={`${testId}-insert`}
                  >
                    {t('form.insertField')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {campaignMergeFields.map((merge) => (
                    <Menu.Item key={merge} onClick={() => insert(merge)}>
                      {`{${merge}}`} · {t(`mergeFields.${merge}`)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
              {usesSms ? (
                <SmsCounter
                  text={fillMergeFields(field.value, sample)}
                  tooLong={field.value.trim().length > CAMPAIGN_TEXT_MAX}
                  testId={`${testId}-count`}
                />
              ) : null}
            </Group>
          </Stack>
        );
      }}
    />
  );
}

/** Counted on the text as a patient gets it (merge fields filled with an example), the way it is billed. */
function SmsCounter({ text, tooLong, testId }: { text: string; tooLong: boolean; testId: string }) {
  const { t } = useTranslation('outreachCampaigns');
  const count = countSms(text);
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" c={tooLong ? 'red.9' : undefined} aria-live="polite" data-testid={testId}>
        {t('form.smsCount', {
          characters: formatNumber(count.units),
          count: count.segments,
          segments: formatNumber(count.segments),
        })}
      </Text>
      <Text size="xs" ta="right">
        {count.encoding === 'gsm7'
          ? t('form.smsGsm', { single: count.single, per: count.perSegment })
          : t('form.smsUnicode', { single: count.single, per: count.perSegment })}
      </Text>
    </Stack>
  );
}

/** Who would get the campaign if it were approved now: the count and the first few names. */
function AudienceBox({ templateId, channels }: { templateId: string; channels: CampaignChannel[] }) {
  const { t } = useTranslation('outreachCampaigns');
  const ready = Boolean(templateId) && channels.length > 0;
  const audience = useQuery({ ...campaignQueries.audience(templateId, channels), enabled: ready });
  let body;
  if (!ready) body = <Text size="sm">{t('form.audienceChoose')}</Text>;
  else if (audience.isError) body = <ErrorAlert testId="campaign-audience-error">{errorText(audience.error)}</ErrorAlert>;
  else if (!audience.data)
    body = (
      <Group gap="xs">
        <Loader size="xs" aria-hidden />
        <Text size="sm">{t('form.audienceCounting')}</Text>
      </Group>
    );
  else
    body = (
      <Stack gap={4}>
        <Text fw={600} data-testid="campaign-audience-count">
          {t('form.audienceCount', { count: audience.data.count, formatted: formatNumber(audience.data.count) })}
        </Text>
        {audience.data.sample.length > 0 ? (
          <>
            <Text size="sm">{t('form.audienceSample')}</Text>
            <List size="sm" data-testid="campaign-audience-sample">
              {audience.data.sample.slice(0, 5).map((patient) => (
                <List.Item key={patient.patientId}>
                  {patient.lastName}, {patient.firstName}
                </List.Item>
              ))}
            </List>
          </>
        ) : null}
        <Text size="xs">{t('form.audienceFrozen')}</Text>
        {audience.data.channelsOff.map((channel) => (
          <Alert key={channel} color="yellow" variant="light" mt="xs" data-testid={`campaign-channel-off-${channel}`}>
            {t(`form.channelsOff_${channel}`)}
          </Alert>
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="md" p="md" bg="gray.0" aria-live="polite" data-testid="campaign-audience">
      <Group gap="xs" mb={6}>
        <IconUsers size={18} aria-hidden />
        <Text fw={600}>{t('form.audienceTitle')}</Text>
      </Group>
      {body}
    </Paper>
  );
}

/** /editcampaign/:id: the form once the campaign is loaded; only a draft can still be changed. */
export function CampaignEdit({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('outreachCampaigns');
  const campaign = useQuery(campaignQueries.one(campaignId));
  return (
    <QueryState
      query={campaign}
      retryLabel={t('retry')}
      errorPrefix={t('overview.loadFailed')}
      errorTestId="campaign-error"
      loadingLabel={t('loading')}
      retryIcon
    >
      {(data) =>
        data.can.edit ? (
          <CampaignForm campaign={data} />
        ) : (
          <>
            <PageHeader title={data.name} />
            <Alert color="yellow" variant="light" data-testid="campaign-not-editable">
              <Stack gap="xs">
                <Text size="sm">{t('form.notEditable')}</Text>
                <Anchor component={Link} to={campaignPath(data)} size="sm">
                  {t('form.openCampaign')}
                </Anchor>
              </Stack>
            </Alert>
          </>
        )
      }
    </QueryState>
  );
}
