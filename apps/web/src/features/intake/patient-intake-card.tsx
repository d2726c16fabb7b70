import { Anchor, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { IconCircle, IconCircleCheck, IconFileText, IconFileTypePdf } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { widespreadCount } from '@pathwell/contracts/body-map';
import type { StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import { ErrorAlert } from '../../components/error-alert';
import { api, apiFetch } from '../../lib/api-client';
import { formatClinicDate, formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { BodyMapView } from '../../patient/body-map';
import { InsuranceCardThumbnails } from './insurance-card-thumbnails';
import { IntakeChanges } from './intake-changes';
import { ReconcileIntakeButton } from './intake-reconcile';

const intakeKeys = { patient: (patientId: string) => ['intake', 'patient', patientId] as const };

const statusColor: Record<StaffIntakeDetail['status'], string> = {
  accountClosed: 'gray',
  active: 'blue',
  completed: 'green',
  expired: 'gray',
  revoked: 'gray',
  locked: 'orange',
};

/** A consent PDF needs the session's Authorization header, so it is fetched and opened as a blob. */
async function openPdf(url: string) {
  try {
    const blob = await (await apiFetch(url, { accept: 'application/pdf' })).blob();
    window.open(URL.createObjectURL(blob), '_blank', 'noopener');
  } catch (failure) {
    notify('error', errorText(failure));
  }
}

/**
 * The intake staff look at first: one still being filled in, else the latest finished one, else the
 * latest. Replaced and expired links of the same visit never hide it (issue #24 §4).
 */
export function currentFirst<T extends Pick<StaffIntakeDetail, 'status'>>(intakes: T[]): T[] {
  const current =
    intakes.find((intake) => intake.status === 'active' || intake.status === 'locked') ??
    intakes.find((intake) => intake.status === 'completed') ??
    intakes[0];
  return current ? [current, ...intakes.filter((intake) => intake !== current)] : [];
}

/**
 * What the patient gave through the intake, newest visit first (issue #12 §3): each step's state, pain
 * scores, the body map beside the previous visit's, allergies and medications, questionnaires with their
 * scores and the signed consents as PDFs. A doctor reads the latest one in half a minute.
 */
export function PatientIntakeCard({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t, i18n } = useTranslation('intakeStaff');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const intakes = useQuery({
    queryKey: intakeKeys.patient(patientId),
    queryFn: () => api.get<StaffIntakeDetail[]>(`/api/patients/${patientId}/intake`),
  });
  const [showEarlier, setShowEarlier] = useState(false);
  const ordered = currentFirst(intakes.data ?? []);
  const shown = showEarlier ? ordered : ordered.slice(0, 1);
  return (
    <Paper withBorder p="md" data-testid="patient-intake">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('card.title')}
          </Title>
          <Button component={Link} to="/patients/basicintake" variant="light" size="xs">
            {t('card.send')}
          </Button>
        </Group>
        {intakes.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {intakes.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
        {intakes.data?.length === 0 ? <Text c="dimmed">{t('card.none')}</Text> : null}
        {shown.map((intake, index) => (
          <Paper key={intake.linkId} withBorder p="sm" radius="sm" data-testid="intake-entry">
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>
                  {t('card.appointment', { when: formatClinicDateTime(intake.appointmentStartsAt, timeZone) })}
                </Text>
                <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Badge color={statusColor[intake.status]} variant="light" style={{ flexShrink: 0 }}>
                    {t(`card.status.${intake.status}`)}
                  </Badge>
                  <Button
                    component={Link}
                    to={`/patients/${patientId}/appointments/${intake.appointmentId}/one-pager`}
                    size="compact-xs"
                    variant="light"
                    leftSection={<IconFileText size={14} aria-hidden />}
                    aria-label={t('card.onePagerLabel', { when: formatClinicDateTime(intake.appointmentStartsAt, timeZone) })}
                    data-testid="intake-one-pager"
                  >
                    {t('card.onePager')}
                  </Button>
                </Group>
              </Group>
              <Group gap="md" wrap="wrap" aria-label={t('intake.steps')} role="list">
                {intake.steps.map((state) => (
                  <Group key={state.step} gap={4} role="listitem" wrap="nowrap">
                    {state.done ? (
                      <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
                    ) : (
                      <IconCircle size={16} color="var(--mantine-color-gray-6)" aria-hidden />
                    )}
                    <Text size="sm">
                      {t(`steps.${state.step}`)}
                      <VisuallyHidden>: {state.done ? t('card.status.completed') : t('card.notDone')}</VisuallyHidden>
                    </Text>
                  </Group>
                ))}
              </Group>
              {intake.saved.vas && intake.saved.vas.current !== undefined ? (
                <Text size="sm" data-testid="intake-vas">
                  {t('card.pain', {
                    current: intake.saved.vas.current ?? '–',
                    average: intake.saved.vas.average ?? '–',
                    best: intake.saved.vas.best ?? '–',
                    worst: intake.saved.vas.worst ?? '–',
                  })}
                </Text>
              ) : null}
              {intake.saved.history ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                  <Text size="sm">
                    <b>{t('card.allergies')}:</b>{' '}
                    {intake.saved.history.noKnownAllergies
                      ? t('card.noAllergies')
                      : (intake.saved.history.allergies ?? []).map((entry) => entry.name).join(', ') || '–'}
                  </Text>
                  <Text size="sm">
                    <b>{t('card.medications')}:</b>{' '}
                    {intake.saved.history.noMedications
                      ? t('card.noMedications')
                      : (intake.saved.history.medications ?? [])
                          .map((entry) => [entry.name, entry.dose, entry.frequency].filter(Boolean).join(' '))
                          .join(', ') || '–'}
                  </Text>
                </SimpleGrid>
              ) : null}
              {intake.saved.history && intake.steps.find((state) => state.step === 2)?.done ? (
                <Group gap="xs" wrap="wrap">
                  <ReconcileIntakeButton
                    patientId={patientId}
                    linkId={intake.linkId}
                    history={intake.saved.history}
                    reconciled={intake.reconciled !== null}
                  />
                  {intake.reconciled ? (
                    <Text size="xs" c="dimmed" data-testid="intake-reconciled">
                      {t('reconcile.reconciled', {
                        date: formatClinicDate(intake.reconciled.at, timeZone),
                        name: intake.reconciled.byName ?? '–',
                        medicines: intake.reconciled.medicines,
                        allergies: intake.reconciled.allergies,
                      })}
                    </Text>
                  ) : null}
                </Group>
              ) : null}
              <IntakeChanges patientId={patientId} linkId={intake.linkId} changes={intake.changes} />
              {intake.saved.bodymap && index === 0 ? (
                <SimpleGrid cols={{ base: 1, md: intake.previousBodyMap ? 2 : 1 }} spacing="sm">
                  <div>
                    <Text size="sm" fw={600}>
                      {t('card.bodyMap')} · {t('card.regions', { count: widespreadCount(intake.saved.bodymap) })}
                    </Text>
                    <BodyMapView value={intake.saved.bodymap} language={language} title={t('card.bodyMap')} />
                  </div>
                  {intake.previousBodyMap ? (
                    <div>
                      <Text size="sm" fw={600}>
                        {t('card.previous')} · {t('card.regions', { count: widespreadCount(intake.previousBodyMap) })}
                      </Text>
                      <BodyMapView value={intake.previousBodyMap} language={language} title={t('card.previous')} />
                    </div>
                  ) : null}
                </SimpleGrid>
              ) : null}
              {intake.forms.length > 0 ? (
                <Text size="sm">
                  <b>{t('card.forms')}:</b>{' '}
                  {intake.forms.map((form, at) => (
                    <span key={form.key}>
                      {at > 0 ? ' · ' : ''}
                      {form.responseId && form.step === 6 ? (
                        <Anchor component={Link} to={`/formresponse/result/${form.responseId}`} size="sm">
                          {language === 'es' && form.title.es ? form.title.es : form.title.en}
                        </Anchor>
                      ) : (
                        <span>{language === 'es' && form.title.es ? form.title.es : form.title.en}</span>
                      )}{' '}
                      {form.done
                        ? form.notScored
                          ? `(${t('card.notScored')})`
                          : form.headlineScore !== null
                            ? `(${t('card.score', { score: form.headlineScore })})`
                            : ''
                        : `(${t('card.notDone')})`}
                    </span>
                  ))}
                </Text>
              ) : null}
              {intake.saved.payment ? <Text size="sm">{t('card.payment')}</Text> : null}
              <InsuranceCardThumbnails photos={intake.insuranceCards} />
              {intake.consents.length > 0 ? (
                <Stack gap={4}>
                  <Text size="sm" fw={600}>
                    {t('card.consents')}
                  </Text>
                  {intake.consents.map((consent) => (
                    <Group key={consent.id} gap="xs" wrap="wrap">
                      <Text size="sm">
                        {consent.title} · {t('card.signed', { date: formatClinicDate(consent.signedAt, timeZone) })}
                        {consent.expiresAt
                          ? ` · ${consent.expired ? t('card.expired') : t('card.expires', { date: formatClinicDate(consent.expiresAt, timeZone) })}`
                          : ''}
                      </Text>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        leftSection={<IconFileTypePdf size={14} />}
                        onClick={() => void openPdf(consent.pdfUrl)}
                      >
                        {t('card.openPdf')}
                      </Button>
                    </Group>
                  ))}
                </Stack>
              ) : null}
            </Stack>
          </Paper>
        ))}
        {ordered.length > 1 ? (
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setShowEarlier((value) => !value)}
            aria-expanded={showEarlier}
            data-testid="intake-earlier"
          >
            {showEarlier ? t('card.hideEarlier') : t('card.showEarlier', { count: ordered.length - 1 })}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
