import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconFlag, IconPhone, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { clinicClock, instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import {
  HOTLIST_NOTE_MAX,
  hotlistCallbackOutcomes,
  hotlistOutcomeInputSchema,
  type HotlistCard,
  type HotlistDetail,
  type HotlistEntryRow,
  type HotlistNext,
  type HotlistPhone,
} from '@pathwell/contracts/hotlists';
import { hotlistOutcomes, type HotlistOutcome } from '@pathwell/contracts/outreach';
import { useSession } from '../../../app/session-context';
import { DataTable, Pager, QueryState, rangeText } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-client';
import { formatClinicDateTime, formatClinicRelative, formatClinicTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { translateValidation } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { StaffTable } from './hotlist-dashboard';
import { hotlistApi, hotlistKeys, hotlistQueries, type EntryFilter } from './hotlists.api';
import { canManageHotlists, HotlistProgressBar, HotlistStatusBadge, OutcomeBadge, outcomeColors } from './hotlist-shared';

/** YYYY-MM-DD as the clinic writes dates (MM/DD/YYYY). */
const mdyOf = (isoDate: string | null) => {
  if (!isoDate) return null;
  const [year, month, day] = isoDate.split('-');
  return `${month}/${day}/${year}`;
};

/** A dialable tel: address: ten digits are a US number. */
export function telHref(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (number.trim().startsWith('+')) return `tel:+${digits}`;
  if (digits.length === 10) return `tel:+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `tel:+${digits}`;
  return `tel:${digits}`;
}

/** A `datetime-local` value read on the clinic's clock, as an ISO instant ('' stays null). */
export function clinicLocalToIso(value: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  return instantOfClinicTime(year, month, day, timeZone, hour, minute).toISOString();
}

const pad = (value: number) => String(value).padStart(2, '0');
/** Now on the clinic's clock as a `datetime-local` value (the input's minimum). */
function clinicLocalNow(timeZone: string): string {
  const clock = clinicClock(Date.now(), timeZone);
  return `${clock.year}-${pad(clock.month)}-${pad(clock.day)}T${pad(clock.hour)}:${pad(clock.minute)}`;
}

const isTextField = (target: EventTarget) =>
  target instanceof HTMLElement && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable);

/**
 * /patienthotlist/:id (issue #15 §4, decision 0052): the call screen of one hot list. "Start calling"
 * claims the next patient (15 minutes), the card shows who to call and how, the outcome is saved and the
 * next patient comes up; below, the list's patients a page at a time.
 */
export function HotlistCallPage({ hotlistId }: { hotlistId: string }) {
  const { t } = useTranslation('outreachHotlists');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const [filter, setFilter] = useState<EntryFilter>('all');
  const [pageNumber, setPageNumber] = useState(0);
  const detail = useQuery(hotlistQueries.detail(hotlistId, filter, pageNumber));

  return (
    <QueryState
      query={detail}
      retryLabel={t('retry')}
      errorPrefix={t('detail.loadFailed')}
      errorTestId="hotlist-detail-error"
      loadingLabel={t('loading')}
    >
      {(list) => (
        <>
          <Anchor component={Link} to="/patienthotlist/dashboard" size="sm" mb="xs" display="inline-flex">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              {t('detail.back')}
            </Group>
          </Anchor>
          <PageHeader title={list.name} actions={canManageHotlists(session.user.role) ? <ManageActions list={list} /> : null} />
          <Stack gap="lg">
            <Paper withBorder radius="lg" p="md">
              <Group gap="xs" mb="sm">
                <HotlistStatusBadge status={list.status} />
                {list.templateName ? (
                  <Text size="sm">
                    {t('detail.template')}: {list.templateName}
                  </Text>
                ) : null}
              </Group>
              <HotlistProgressBar name={list.name} progress={list.progress} />
              {list.reason ? (
                <Text size="sm" mt="sm">
                  <Text component="span" fw={600} size="sm">
                    {t('detail.reason')}:
                  </Text>{' '}
                  {list.reason}
                </Text>
              ) : null}
            </Paper>
            {list.status === 'active' ? (
              <CallPanel hotlistId={list.id} resume={list.myClaimEntryId !== null} timeZone={timeZone} />
            ) : (
              <Alert color="gray" variant="light" data-testid="hotlist-finished">
                {t('detail.finishedNotice')}
              </Alert>
            )}
            <Paper withBorder radius="lg" p="md">
              <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
                <Title order={2} size="h4">
                  {t('entries.title')}
                </Title>
                <Select
                  label={t('entries.filter')}
                  data={[
                    { value: 'all', label: t('entries.filters.all') },
                    { value: 'open', label: t('entries.filters.open') },
                    { value: 'callback', label: t('entries.filters.callback') },
                    ...hotlistOutcomes.map((outcome) => ({ value: outcome, label: t(`outcome.${outcome}`) })),
                  ]}
                  value={filter}
                  onChange={(value) => {
                    setFilter((value as EntryFilter | null) ?? 'all');
                    setPageNumber(0);
                  }}
                  allowDeselect={false}
                  w={240}
                  data-testid="hotlist-entry-filter"
                />
              </Group>
              <EntriesTable list={list} pageNumber={pageNumber} onPage={setPageNumber} timeZone={timeZone} />
            </Paper>
            <Paper withBorder radius="lg" p="md">
              <Title order={2} size="h4" mb="sm">
                {t('detail.staffTitle')}
              </Title>
              <StaffTable rows={list.staff} timeZone={timeZone} testId="hotlist-list-staff" />
            </Paper>
          </Stack>
        </>
      )}
    </QueryState>
  );
}

function EntriesTable({
  list,
  pageNumber,
  onPage,
  timeZone,
}: {
  list: HotlistDetail;
  pageNumber: number;
  onPage: (page: number) => void;
  timeZone: string;
}) {
  const { t } = useTranslation('outreachHotlists');
  const { totalRecords, data } = list.entries;
  return (
    <DataTable<HotlistEntryRow>
      rows={data}
      rowKey={(row) => row.id}
      rowTestId="hotlist-entry-row"
      testId="hotlist-entries"
      ariaLabel={t('entries.title')}
      minWidth={860}
      emptyText={t('entries.empty')}
      emptyTestId="hotlist-entries-empty"
      columns={[
        { key: 'position', header: t('entries.position'), cell: (row) => row.position },
        {
          key: 'patient',
          header: t('entries.patient'),
          cell: (row) => (
            <Anchor component={Link} to={`/patients/patientdashboard/${row.patientId}`}>
              {row.patientName}
            </Anchor>
          ),
        },
        { key: 'codes', header: t('entries.codes'), cell: (row) => row.matchedCodes.join(', ') },
        {
          key: 'outcome',
          header: t('entries.outcome'),
          cell: (row) => (
            <Stack gap={2} align="flex-start">
              <OutcomeBadge outcome={row.outcome} />
              {row.inCallWith ? <Text size="sm">{t('entries.inCallWith', { name: row.inCallWith })}</Text> : null}
            </Stack>
          ),
        },
        {
          key: 'callback',
          header: t('entries.callback'),
          cell: (row) => (row.callbackAt ? formatClinicDateTime(row.callbackAt, timeZone) : '—'),
        },
        { key: 'attempts', header: t('entries.attempts'), cell: (row) => row.attempts, tdProps: { ta: 'right' } },
        {
          key: 'by',
          header: t('entries.by'),
          cell: (row) =>
            row.outcomeByName && row.outcomeAt ? (
              <Stack gap={0}>
                <Text size="sm">{row.outcomeByName}</Text>
                <Text size="sm">{formatClinicRelative(row.outcomeAt, timeZone)}</Text>
              </Stack>
            ) : (
              '—'
            ),
        },
      ]}
      footer={
        <Pager
          totalRecords={totalRecords}
          pageNumber={pageNumber}
          onPage={onPage}
          ariaLabel={t('entries.pages')}
          summary={rangeText(pageNumber, data.length, totalRecords, true)}
          testId="hotlist-entries-pager"
        />
      }
    />
  );
}

function ManageActions({ list }: { list: HotlistDetail }) {
  const { t } = useTranslation('outreachHotlists');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<'finish' | 'delete' | null>(null);
  const finish = useMutation({
    mutationFn: () => hotlistApi.finish(list.id),
    onSuccess: () => {
      setConfirm(null);
      notify('success', t('detail.finished'));
      void queryClient.invalidateQueries({ queryKey: hotlistKeys.all });
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const remove = useMutation({
    mutationFn: () => hotlistApi.remove(list.id),
    onSuccess: () => {
      setConfirm(null);
      notify('success', t('detail.deleted'));
      queryClient.removeQueries({ queryKey: ['hotlists', 'detail', list.id] });
      void queryClient.invalidateQueries({ queryKey: hotlistKeys.dashboard() });
      void navigate('/patienthotlist/dashboard');
    },
    onError: (error) => notify('error', errorText(error)),
  });
  const running = confirm === 'finish' ? finish : remove;
  return (
    <Group gap="xs">
      {list.status === 'active' ? (
        <Button
          variant="default"
          leftSection={<IconFlag size={16} aria-hidden />}
          onClick={() => setConfirm('finish')}
          data-testid="hotlist-finish"
        >
          {t('detail.finish')}
        </Button>
      ) : null}
      <Button
        variant="default"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={() => setConfirm('delete')}
        data-testid="hotlist-delete"
      >
        {t('detail.delete')}
      </Button>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === 'finish' ? t('detail.finishTitle') : t('detail.deleteTitle')}
      >
        <Stack gap="md">
          <Text>{confirm === 'finish' ? t('detail.finishText') : t('detail.deleteText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('detail.cancel')}
            </Button>
            <Button
              color={confirm === 'delete' ? 'red' : 'blue'}
              loading={running.isPending}
              onClick={() => running.mutate()}
              data-testid="hotlist-confirm"
            >
              {t('detail.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

/** The call screen: claim, call, record, next. */
function CallPanel({ hotlistId, resume, timeZone }: { hotlistId: string; resume: boolean; timeZone: string }) {
  const { t } = useTranslation('outreachHotlists');
  const queryClient = useQueryClient();
  const [queue, setQueue] = useState<HotlistNext | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['hotlists', 'detail', hotlistId] });

  const claim = useMutation({
    mutationFn: () => hotlistApi.next(hotlistId),
    onSuccess: (answer) => {
      setQueue(answer);
      refresh();
    },
  });
  const release = useMutation({
    mutationFn: (entryId: string) => hotlistApi.release(hotlistId, entryId),
    onSuccess: () => {
      setQueue(null);
      notify('success', t('call.released'));
      refresh();
    },
    onError: (error) => notify('error', errorText(error)),
  });

  const entry = queue?.entry ?? null;
  return (
    <Paper withBorder radius="lg" p="md" aria-labelledby="hotlist-call-title" component="section">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="hotlist-call-title">
          {t('call.title')}
        </Title>
        {queue ? (
          <Text size="sm" data-testid="hotlist-remaining">
            {t('call.remaining', { count: queue.remaining })}
          </Text>
        ) : null}
      </Group>
      {claim.isError ? (
        <Stack gap="sm" mb="sm">
          <ErrorAlert testId="hotlist-claim-error">
            {t('call.claimFailed')} {errorText(claim.error)}
          </ErrorAlert>
        </Stack>
      ) : null}
      {entry ? (
        <CallCard
          key={`${entry.entryId}:${entry.claimedUntil}`}
          hotlistId={hotlistId}
          entry={entry}
          timeZone={timeZone}
          claiming={claim.isPending}
          onSaved={() => {
            refresh();
            claim.mutate();
          }}
          onLost={() => {
            setQueue(null);
            refresh();
          }}
          onRelease={() => release.mutate(entry.entryId)}
          releasing={release.isPending}
        />
      ) : (
        <Stack gap="sm" align="flex-start">
          {queue ? (
            <Stack gap={4} data-testid="hotlist-nobody-due">
              <Text>{t('call.nobodyDue')}</Text>
              {queue.nextCallbackAt ? (
                <Text size="sm">{t('call.nextCallback', { when: formatClinicDateTime(queue.nextCallbackAt, timeZone) })}</Text>
              ) : null}
            </Stack>
          ) : null}
          <Button
            size="md"
            leftSection={<IconPlayerPlay size={18} aria-hidden />}
            loading={claim.isPending}
            onClick={() => claim.mutate()}
            data-testid="hotlist-start"
          >
            {queue ? t('call.checkAgain') : resume ? t('call.resume') : t('call.start')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

function CallCard({
  hotlistId,
  entry,
  timeZone,
  claiming,
  onSaved,
  onLost,
  onRelease,
  releasing,
}: {
  hotlistId: string;
  entry: HotlistCard;
  timeZone: string;
  claiming: boolean;
  onSaved: () => void;
  onLost: () => void;
  onRelease: () => void;
  releasing: boolean;
}) {
  const { t } = useTranslation('outreachHotlists');
  const heading = useRef<HTMLHeadingElement>(null);
  const [outcome, setOutcome] = useState<HotlistOutcome | null>(null);
  const [note, setNote] = useState('');
  const [callback, setCallback] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  // A new patient: the focus goes to their name, so keyboard and screen-reader users start there.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const save = useMutation({
    mutationFn: (input: { outcome: HotlistOutcome; note: string | null; callbackAt: string | null }) =>
      hotlistApi.outcome(hotlistId, entry.entryId, input),
    onSuccess: () => {
      notify('success', t('call.saved'));
      onSaved();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length > 0) {
        setErrors(error.fields);
        return;
      }
      notify('error', `${t('call.saveFailed')} ${errorText(error)}`);
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) onLost();
    },
  });

  const takesCallback = outcome !== null && hotlistCallbackOutcomes.includes(outcome);
  const submit = () => {
    const input = {
      outcome: outcome ?? undefined,
      note: note.trim() || null,
      callbackAt: takesCallback && callback ? clinicLocalToIso(callback, timeZone) : null,
    };
    const checked = hotlistOutcomeInputSchema.safeParse(input);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    save.mutate(checked.data);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTextField(event.target)) return;
    const index = Number(event.key) - 1;
    const chosen = hotlistOutcomes[index];
    if (chosen) {
      event.preventDefault();
      setOutcome(chosen);
    }
  };
  const errorOf = (field: string) => (errors[field] ? (translateValidation(errors[field]) ?? errors[field]) : undefined);
  const busy = save.isPending || claiming;

  return (
    <Stack gap="md" data-testid="hotlist-card" onKeyDown={onKeyDown}>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={3} size="h3" ref={heading} tabIndex={-1} data-testid="hotlist-patient-name">
            {entry.firstName} {entry.lastName}
          </Title>
          <Text size="sm">{t('call.heldUntil', { time: formatClinicTime(entry.claimedUntil, timeZone) })}</Text>
          {entry.callbackAt ? (
            <Badge variant="light" color="blue" data-testid="hotlist-callback-due">
              {t('call.callbackDue', { when: formatClinicDateTime(entry.callbackAt, timeZone) })}
            </Badge>
          ) : null}
        </Stack>
        <Button variant="default" onClick={onRelease} loading={releasing} disabled={busy} data-testid="hotlist-release">
          {t('call.release')}
        </Button>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="sm">
          <div>
            <Text fw={600} size="sm">
              {t('call.phones')}
            </Text>
            {entry.phones.length === 0 ? (
              <Text size="sm">{t('call.noPhones')}</Text>
            ) : (
              <List listStyleType="none" spacing={4} data-testid="hotlist-phones">
                {entry.phones.map((phone, index) => (
                  <List.Item key={`${phone.number}-${index}`}>
                    <PhoneLink phone={phone} />
                  </List.Item>
                ))}
              </List>
            )}
          </div>
          <Facts
            items={[
              [t('call.dateOfBirth'), mdyOf(entry.dateOfBirth) ?? '—'],
              [t('call.preferredLanguage'), t(`language.${entry.preferredLanguage}`)],
              [t('call.lastVisit'), mdyOf(entry.lastVisit) ?? t('call.never')],
              [t('call.codes'), entry.matchedCodes.join(', ') || '—'],
              ...(entry.reason ? ([[t('call.reason'), entry.reason]] as [string, string][]) : []),
            ]}
          />
        </Stack>
        <div>
          <Text fw={600} size="sm">
            {t('call.previousCalls')}
          </Text>
          {entry.previousCalls.length === 0 ? (
            <Text size="sm">{t('call.noPreviousCalls')}</Text>
          ) : (
            <List listStyleType="none" spacing="xs" data-testid="hotlist-previous-calls">
              {entry.previousCalls.map((call) => (
                <List.Item key={call.id}>
                  <Stack gap={2}>
                    <Group gap="xs">
                      <OutcomeBadge outcome={call.outcome} />
                      <Text size="sm">
                        {t('call.callBy', { when: formatClinicRelative(call.createdAt, timeZone), name: call.userName ?? '—' })}
                      </Text>
                    </Group>
                    {call.callbackAt ? (
                      <Text size="sm">{t('call.callbackOn', { when: formatClinicDateTime(call.callbackAt, timeZone) })}</Text>
                    ) : null}
                    {call.note ? <Text size="sm">{call.note}</Text> : null}
                  </Stack>
                </List.Item>
              ))}
            </List>
          )}
        </div>
      </SimpleGrid>

      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        aria-label={t('call.outcomeLabel')}
      >
        <Stack gap="sm">
          <div role="group" aria-labelledby="hotlist-outcome-label" aria-describedby="hotlist-outcome-keys">
            <Text fw={600} size="sm" id="hotlist-outcome-label" mb={4}>
              {t('call.outcomeLabel')}
            </Text>
            <Group gap="xs" wrap="wrap">
              {hotlistOutcomes.map((value, index) => (
                <Button
                  key={value}
                  type="button"
                  variant={outcome === value ? 'filled' : 'default'}
                  color={outcomeColors[value] === 'gray' ? 'dark' : outcomeColors[value] + '.8'}
                  aria-pressed={outcome === value}
                  onClick={() => setOutcome(value)}
                  data-testid={`hotlist-outcome-${value}`}
                >
                  {index + 1}. {t(`outcome.${value}`)}
                </Button>
              ))}
            </Group>
            <Text size="sm" mt={4} id="hotlist-outcome-keys">
              {t('call.shortcuts')}
            </Text>
            {errors.outcome ? (
              <Text size="sm" c="red.8" role="alert" mt={4}>
                {t('call.outcomeRequired')}
              </Text>
            ) : null}
          </div>
          {takesCallback ? (
            <TextInput
              type="datetime-local"
              label={t('call.callbackAt')}
              description={outcome === 'voicemail' ? t('call.callbackVoicemail') : t('call.callbackDeclined')}
              value={callback}
              min={clinicLocalNow(timeZone)}
              onChange={(event) => setCallback(event.currentTarget.value)}
              error={errorOf('callbackAt')}
              w={280}
              data-testid="hotlist-callback"
            />
          ) : null}
          <Textarea
            label={t('call.note')}
            description={t('call.noteDescription', { max: HOTLIST_NOTE_MAX })}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={HOTLIST_NOTE_MAX}
            autosize
            minRows={2}
            error={errorOf('note')}
            data-testid="hotlist-note"
          />
          <Group>
            <Button type="submit" loading={busy} data-testid="hotlist-save">
              {t('call.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function PhoneLink({ phone }: { phone: HotlistPhone }) {
  const { t, i18n } = useTranslation('outreachHotlists');
  const typeKey = `phoneType.${phone.phoneType}`;
  const type = i18n.exists(`outreachHotlists:${typeKey}`) ? t(typeKey) : t('phoneType.other');
  const who = [phone.contactName, phone.relation].filter(Boolean).join(', ');
  return (
    <Group gap="xs" wrap="nowrap">
      <Anchor
        href={telHref(phone.number)}
        aria-label={t('call.callNumber', { type, number: phone.number })}
        fw={600}
        data-testid="hotlist-phone-link"
      >
        <Group gap={4} component="span" wrap="nowrap">
          <IconPhone size={16} aria-hidden />
          {phone.number}
        </Group>
      </Anchor>
      <Text size="sm">
        {type}
        {who ? ` (${who})` : ''}
      </Text>
      {phone.isPrimary ? (
        <Badge size="sm" variant="light" color="gray">
          {t('call.primary')}
        </Badge>
      ) : null}
    </Group>
  );
}

function Facts({ items }: { items: [string, string][] }) {
  return (
    <Stack gap={4} component="dl" m={0}>
      {items.map(([label, value]) => (
        <Group key={label} gap="xs" wrap="nowrap" align="flex-start">
          <Text component="dt" size="sm" fw={600} miw={150}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0}>
            {value}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
