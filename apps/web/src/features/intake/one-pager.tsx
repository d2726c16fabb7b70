import { Anchor, Badge, Button, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowLeft,
  IconArrowUp,
  IconCircle,
  IconCircleCheck,
  IconEqual,
  IconPrinter,
  IconRefresh,
} from '@tabler/icons-react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppointmentStatusCode } from '@pathwell/contracts/appointments';
import { regionLabel } from '@pathwell/contracts/body-map';
import type { LocalizedText } from '@pathwell/contracts/forms';
import { vasKeys, type OnePager } from '@pathwell/contracts/intake';
import { isoToMdy } from '@pathwell/contracts/patients';
import { useSession } from '../../app/session-context';
import { AppointmentStatusBadge } from '../../components/appointment-status-badge';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { api, ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { formatClinicDate, formatClinicTime } from '../../lib/dates';
import './one-pager.css';
import { OnePagerPaperwork } from './one-pager-paperwork';

const onePagerQueries = {
  appointment: (appointmentId: string) =>
    queryOptions({
      queryKey: ['intake', 'one-pager', appointmentId],
      queryFn: () => api.get<OnePager>(`/api/patientappointments/one-pager?appointmentId=${encodeURIComponent(appointmentId)}`),
      // The page shows its own failure; no toast on top of it.
      meta: { silent: true },
    }),
};

const textIn = (text: LocalizedText, language: string) => (language === 'es' && text.es ? text.es : text.en);

/**
 * A signed difference with an arrow, named in words for screen readers and readable on a black and
 * white printout. `better` colours it on screen only (green better, red worse); pain is better lower.
 */
function Change({ value, better }: { value: number; better: boolean | null }) {
  const { t } = useTranslation('onePager');
  const magnitude = Math.abs(value);
  const label =
    value > 0 ? t('change.up', { count: magnitude }) : value < 0 ? t('change.down', { count: magnitude }) : t('change.same');
  const Icon = value > 0 ? IconArrowUp : value < 0 ? IconArrowDown : IconEqual;
  const color =
    better === null || value === 0 ? undefined : better ? 'var(--mantine-color-green-9)' : 'var(--mantine-color-red-9)';
  return (
    <span className="one-pager-change" style={{ color }} data-testid="change">
      <Icon size={14} aria-hidden stroke={2.5} />
      <span>{label}</span>
    </span>
  );
}

function Section({
  title,
  testId,
  wide = false,
  children,
}: {
  title: string;
  testId: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      className={wide ? 'one-pager-section one-pager-section-wide' : 'one-pager-section'}
      aria-label={title}
      data-testid={testId}
    >
      <Title order={2} size="h5" mb={6}>
        {title}
      </Title>
      {children}
    </section>
  );
}

const Dimmed = ({ children }: { children: ReactNode }) => (
  <Text size="sm" c="dimmed">
    {children}
  </Text>
);

function PainSection({ pain, timeZone }: { pain: OnePager['pain']; timeZone: string }) {
  const { t } = useTranslation('onePager');
  return (
    <Section title={t('pain.title')} testId="one-pager-pain">
      {pain.current ? (
        <Table className="one-pager-table" verticalSpacing={2} horizontalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('pain.score')}</Table.Th>
              <Table.Th scope="col">{t('pain.thisVisit')}</Table.Th>
              {pain.previous ? (
                <>
                  <Table.Th scope="col">
                    {t('pain.lastVisit', { date: formatClinicDate(pain.previous.startsAt, timeZone) })}
                  </Table.Th>
                  <Table.Th scope="col">{t('pain.change')}</Table.Th>
                </>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {vasKeys.map((key) => (
              <Table.Tr key={key} data-testid={`pain-${key}`}>
                <Table.Th scope="row" fw={500}>
                  {t(`pain.${key}`)}
                </Table.Th>
                <Table.Td fw={700}>{pain.current![key]}</Table.Td>
                {pain.previous && pain.change ? (
                  <>
                    <Table.Td>{pain.previous.scores[key]}</Table.Td>
                    <Table.Td>
                      <Change value={pain.change[key]} better={pain.change[key] < 0} />
                    </Table.Td>
                  </>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Dimmed>{t('pain.notAnswered')}</Dimmed>
      )}
      {pain.current && !pain.previous ? <Dimmed>{t('pain.noPrevious')}</Dimmed> : null}
    </Section>
  );
}

function BodyMapSection({ bodyMap, timeZone }: { bodyMap: OnePager['bodyMap']; timeZone: string }) {
  const { t, i18n } = useTranslation('onePager');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const { current, previous } = bodyMap;
  return (
    <Section title={t('bodyMap.title')} testId="one-pager-body-map">
      {current ? (
        <>
          <Group gap="xs" align="baseline" wrap="wrap">
            <Text size="sm" fw={700} data-testid="body-map-count">
              {t('bodyMap.areas', { count: current.count })}
            </Text>
            {previous ? (
              <Text size="sm" data-testid="body-map-previous">
                {t('bodyMap.previous', { date: formatClinicDate(previous.startsAt, timeZone), count: previous.count })}{' '}
                <Change value={current.count - previous.count} better={current.count < previous.count} />
              </Text>
            ) : null}
          </Group>
          <ul className="one-pager-list one-pager-list-columns" data-testid="body-map-regions">
            {current.regions.map((region) => (
              <li key={region.id}>
                {regionLabel(region.id, language)} — {t('bodyMap.level', { level: region.level })}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Dimmed>{t('bodyMap.notAnswered')}</Dimmed>
      )}
    </Section>
  );
}

function ProsSection({ pros }: { pros: OnePager['pros'] }) {
  const { t, i18n } = useTranslation('onePager');
  return (
    <Section title={t('pros.title')} testId="one-pager-pros" wide>
      {pros.length === 0 ? (
        <Dimmed>{t('pros.none')}</Dimmed>
      ) : (
        <Table className="one-pager-table" verticalSpacing={2} horizontalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('pros.form')}</Table.Th>
              <Table.Th scope="col">{t('pros.score')}</Table.Th>
              <Table.Th scope="col">{t('pros.band')}</Table.Th>
              <Table.Th scope="col">{t('pros.change')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pros.map((pro) => (
              <Table.Tr key={pro.responseId} data-testid="pro-row">
                <Table.Th scope="row" fw={500}>
                  <Anchor component={Link} to={`/formresponse/result/${pro.responseId}`} size="sm">
                    {textIn(pro.title, i18n.language)}
                  </Anchor>
                </Table.Th>
                <Table.Td fw={700} className="one-pager-score">
                  {pro.notScored
                    ? t('pros.notScoredWording')
                    : pro.score === null
                      ? t('pros.notScored')
                      : t('pros.scoreOf', { score: pro.score, maximum: pro.maximum })}
                </Table.Td>
                <Table.Td>{pro.bandLabel ? textIn(pro.bandLabel, i18n.language) : '—'}</Table.Td>
                <Table.Td>
                  {pro.previous === null ? (
                    t('pros.first')
                  ) : pro.previous.change === null ? (
                    '—'
                  ) : (
                    <>
                      <Change value={pro.previous.change} better={pro.previous.better} />
                      {pro.previous.better !== null ? ` (${t(pro.previous.better ? 'pros.better' : 'pros.worse')})` : ''}
                      {pro.previous.meetsMcid ? `, ${t('pros.important')}` : ''}
                    </>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

function HistorySection({ data }: { data: OnePager }) {
  const { t, i18n } = useTranslation('onePager');
  const { allergies, medications, historyForms } = data;
  return (
    <Section title={`${t('allergies.title')} · ${t('medications.title')}`} testId="one-pager-history">
      <Stack gap={6}>
        <div data-testid="one-pager-allergies">
          <Text size="sm" fw={700}>
            {t('allergies.title')}
          </Text>
          {allergies === null ? (
            <Dimmed>{t('allergies.notAnswered')}</Dimmed>
          ) : allergies.items.length === 0 ? (
            <Text size="sm">{t('allergies.noneKnown')}</Text>
          ) : (
            <ul className="one-pager-list">
              {allergies.items.map((allergy, index) => (
                <li key={index}>
                  <b>{allergy.name}</b>
                  {allergy.reaction ? ` — ${allergy.reaction}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div data-testid="one-pager-medications">
          <Text size="sm" fw={700}>
            {t('medications.title')}
          </Text>
          {medications === null ? (
            <Dimmed>{t('medications.notAnswered')}</Dimmed>
          ) : medications.items.length === 0 ? (
            <Text size="sm">{t('medications.none')}</Text>
          ) : (
            <ul className="one-pager-list">
              {medications.items.map((medication, index) => (
                <li key={index}>
                  <b>{medication.name}</b>
                  {[medication.dose, medication.frequency].filter(Boolean).length > 0
                    ? ` ${[medication.dose, medication.frequency].filter(Boolean).join(', ')}`
                    : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
        {historyForms.length > 0 ? (
          <div data-testid="one-pager-history-forms">
            <Text size="sm" fw={700}>
              {t('historyForms.title')}
            </Text>
            <ul className="one-pager-list">
              {historyForms.map((form) => (
                <li key={form.key}>
                  {form.responseId ? (
                    <Anchor component={Link} to={`/customformresponse/view/${form.responseId}`} size="sm">
                      {textIn(form.title, i18n.language)}
                    </Anchor>
                  ) : (
                    textIn(form.title, i18n.language)
                  )}{' '}
                  ({t(form.done ? 'historyForms.answered' : 'historyForms.notAnswered')})
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Stack>
    </Section>
  );
}

function ConsentsSection({ consents, timeZone }: { consents: OnePager['consents']; timeZone: string }) {
  const { t } = useTranslation('onePager');
  return (
    <Section title={t('consents.title')} testId="one-pager-consents">
      {consents.length === 0 ? (
        <Dimmed>{t('consents.none')}</Dimmed>
      ) : (
        <ul className="one-pager-list">
          {consents.map((consent) => (
            <li key={consent.id} data-testid="consent" data-expired={consent.expired}>
              {consent.title} · {t('consents.signed', { date: formatClinicDate(consent.signedAt, timeZone) })}
              {consent.expiresAt ? (
                consent.expired ? (
                  <>
                    {' · '}
                    <Badge color="red" variant="light" size="sm" className="one-pager-flag">
                      {t('consents.expired', { date: formatClinicDate(consent.expiresAt, timeZone) })}
                    </Badge>
                  </>
                ) : (
                  ` · ${t('consents.expires', { date: formatClinicDate(consent.expiresAt, timeZone) })}`
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** Who and when: the line under the patient's name, then the intake's progress step by step. */
function VisitSummary({ data, timeZone }: { data: OnePager; timeZone: string }) {
  const { t } = useTranslation('onePager');
  const { appointment, intake } = data;
  const parts = [
    appointment.reason ? t(`visit.reason.${appointment.reason}`) : null,
    appointment.typeName,
    appointment.doctorName ? t('visit.provider', { name: appointment.doctorName }) : t('visit.noProvider'),
    appointment.roomName ? t('visit.room', { name: appointment.roomName }) : null,
  ].filter(Boolean);
  return (
    <Stack gap={4} mb="sm" data-testid="one-pager-visit">
      <Group gap="xs" wrap="wrap">
        <Text fw={700}>{t('visit.label', { when: appointment.startsAtText })}</Text>
        <AppointmentStatusBadge status={appointment.status as AppointmentStatusCode} compact />
        <Text size="sm" data-testid="one-pager-check-in">
          {appointment.checkedInAt
            ? t('visit.checkedIn', { time: formatClinicTime(appointment.checkedInAt, timeZone) })
            : t('visit.notCheckedIn')}
        </Text>
      </Group>
      <Text size="sm">{parts.join(' · ')}</Text>
      {intake ? (
        <Group gap="xs" wrap="wrap" data-testid="one-pager-intake">
          <Text size="sm" fw={700}>
            {t('intake.label')}: {t('intake.progress', { done: intake.stepsDone, total: intake.stepsPlanned })} ·{' '}
            {t(`intakeStaff:card.status.${intake.status}`)}
          </Text>
          <Group component="ul" gap={8} wrap="wrap" className="one-pager-steps">
            {intake.steps.map((state) => {
              const step = t(`intakeStaff:steps.${state.step}`);
              return (
                <li key={state.step}>
                  {state.done ? (
                    <IconCircleCheck size={14} color="var(--mantine-color-green-8)" aria-hidden />
                  ) : (
                    <IconCircle size={14} color="var(--mantine-color-gray-6)" aria-hidden />
                  )}
                  <Text span size="xs">
                    <span aria-hidden>{step}</span>
                    <span className="visually-hidden">{t(state.done ? 'intake.stepDone' : 'intake.stepTodo', { step })}</span>
                  </Text>
                </li>
              );
            })}
          </Group>
        </Group>
      ) : (
        <Text size="sm" c="dimmed" data-testid="one-pager-no-intake">
          {t('intake.none')}
        </Text>
      )}
    </Stack>
  );
}

function PatientLine({ patient }: { patient: OnePager['patient'] }) {
  const { t } = useTranslation('onePager');
  const parts = [
    t('patient.age', { count: patient.age }),
    patient.sex ?? t('patient.sexUnknown'),
    t('patient.born', { date: isoToMdy(patient.dateOfBirth) }),
  ];
  return <span data-testid="one-pager-patient">{parts.join(' · ')}</span>;
}

/**
 * The doctor's one-pager of a visit (issue #12): read in half a minute, printable on one A4 or Letter
 * page. The patient id in the address must be the visit's patient; anything else reads as not found.
 */
export function OnePagerView({ patientId, appointmentId }: { patientId: string; appointmentId: string }) {
  const { t } = useTranslation('onePager');
  const timeZone = useSession().instance.timeZoneId;
  const query = useQuery(onePagerQueries.appointment(appointmentId));
  const data = query.data && query.data.patient.id === patientId ? query.data : undefined;
  const notFound =
    (query.isError && query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) ||
    (query.data !== undefined && data === undefined);

  const back = (
    <Button
      component={Link}
      to={`/patients/patientdashboard/${patientId}`}
      variant="default"
      leftSection={<IconArrowLeft size={16} aria-hidden />}
    >
      {t('backToPatient')}
    </Button>
  );
  const actions = (
    <Group gap="xs" className="one-pager-actions">
      {back}
      {data ? (
        <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()} data-testid="one-pager-print">
          {t('print')}
        </Button>
      ) : null}
    </Group>
  );

  if (notFound || query.isError) {
    return (
      <div className="one-pager">
        <PageHeader title={t('title')} actions={actions} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="one-pager-error">
            {notFound ? t('notFound') : `${t('loadFailed')} ${errorText(query.error)}`}
          </ErrorAlert>
          {notFound ? null : (
            <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void query.refetch()}>
              {t('retry')}
            </Button>
          )}
        </Stack>
      </div>
    );
  }
  if (!data) {
    return (
      <div className="one-pager">
        <PageHeader title={t('title')} actions={actions} />
        <Center py="xl">
          <Loader aria-label={t('loading')} />
        </Center>
      </div>
    );
  }
  return (
    <div className="one-pager" data-testid="one-pager">
      <PageHeader title={data.patient.name} description={<PatientLine patient={data.patient} />} actions={actions} />
      <VisitSummary data={data} timeZone={timeZone} />
      <div className="one-pager-grid">
        <PainSection pain={data.pain} timeZone={timeZone} />
        <BodyMapSection bodyMap={data.bodyMap} timeZone={timeZone} />
        <ProsSection pros={data.pros} />
        <HistorySection data={data} />
        <ConsentsSection consents={data.consents} timeZone={timeZone} />
        {data.intake ? <OnePagerPaperwork patientId={patientId} linkId={data.intake.linkId} /> : null}
      </div>
    </div>
  );
}
