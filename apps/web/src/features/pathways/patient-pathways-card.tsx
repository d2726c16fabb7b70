import { Anchor, Badge, Button, Group, Loader, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconRoute } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { useStepText } from './pathway-timeline';
import { pathwayApi, pathwayKeys, pathwayQueries } from './pathways.api';

/** The start of a pathway at 9:00 in the clinic on the chosen day, so day-n steps fall on clinic days. */
const ANCHOR_HOUR = 9;

/**
 * The patient's pathways on their dashboard: each with its next step and date (the next questionnaire
 * date above all), a link to the pathway's timeline, and "Enrol in pathway".
 */
export function PatientPathwaysCard({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t } = useTranslation('pathways');
  const enrolments = useQuery(pathwayQueries.patient(patientId));
  const stepText = useStepText();
  const [enrolling, setEnrolling] = useState(false);
  const rows = enrolments.data;
  return (
    <Paper withBorder p="md" data-testid="patient-pathways">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('card.title')}
          </Title>
          <Button size="xs" variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEnrolling(true)}>
            {t('card.enrol')}
          </Button>
        </Group>
        {enrolments.isPending ? <Loader size="sm" aria-label={t('card.loading')} /> : null}
        {enrolments.isError ? <ErrorAlert>{t('card.loadFailed')}</ErrorAlert> : null}
        {rows && rows.length === 0 ? <Text c="dimmed">{t('card.none')}</Text> : null}
        {rows?.map((row) => (
          <Group key={row.id} justify="space-between" wrap="nowrap" align="flex-start" data-testid="patient-pathway">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={6}>
                <IconRoute size={16} aria-hidden />
                <Anchor component={Link} to={`/pathwaysresponse/${row.id}`} fw={600} size="sm">
                  {row.pathwayName}
                </Anchor>
              </Group>
              {row.nextStep ? (
                <Text size="xs">
                  {t('card.next', {
                    step: stepText({ ...row.nextStep, messageEn: null, messageEs: null }),
                    date: formatClinicDate(row.nextStep.dueAt, timeZone),
                  })}
                </Text>
              ) : row.status === 'active' ? (
                <Text size="xs" c="dimmed">
                  {t('card.noNext')}
                </Text>
              ) : null}
              {row.nextProAt && row.nextStep?.kind !== 'pro' ? (
                <Text size="xs" data-testid="next-pro-date">
                  {t('card.nextPro', { date: formatClinicDate(row.nextProAt, timeZone) })}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed">
                {t('card.progress', { done: row.completedSteps, total: row.totalSteps })}
              </Text>
            </Stack>
            <Badge
              variant="light"
              color={row.status === 'active' ? 'blue' : row.status === 'completed' ? 'green' : 'gray'}
              style={{ flexShrink: 0 }}
            >
              {t(`enrolmentStatuses.${row.status}`)}
            </Badge>
          </Group>
        ))}
      </Stack>
      <Modal opened={enrolling} onClose={() => setEnrolling(false)} title={t('card.enrolTitle')}>
        {enrolling ? <EnrolForm patientId={patientId} timeZone={timeZone} onClose={() => setEnrolling(false)} /> : null}
      </Modal>
    </Paper>
  );
}

function EnrolForm({ patientId, timeZone, onClose }: { patientId: string; timeZone: string; onClose: () => void }) {
  const { t } = useTranslation('pathways');
  const queryClient = useQueryClient();
  const pathways = useQuery(pathwayQueries.list());
  const [pathwayId, setPathwayId] = useState<string | null>(null);
  const [anchor, setAnchor] = useState('');
  const [errors, setErrors] = useState<{ pathway?: string; anchor?: string }>({});
  const enrol = useMutation({
    mutationFn: (input: { pathwayId: string; anchorAt?: string }) =>
      pathwayApi.enrol(input.pathwayId, { patientId, anchorAt: input.anchorAt }),
    onSuccess: (enrolment) => {
      notify('success', t('card.enrolled', { name: enrolment.pathwayName }));
      void queryClient.invalidateQueries({ queryKey: pathwayKeys.all });
      onClose();
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const active = (pathways.data ?? []).filter((row) => row.isActive);
  const submit = () => {
    const next: typeof errors = {};
    if (!pathwayId) next.pathway = t('card.pathwayRequired');
    const text = anchor.trim();
    if (text && !isValidMdyDate(text)) next.anchor = t('card.anchorInvalid');
    setErrors(next);
    if (next.pathway || next.anchor) return;
    let anchorAt: string | undefined;
    if (text) {
      const [month, day, year] = text.split('/').map(Number);
      anchorAt = instantOfClinicTime(year!, month!, day!, timeZone, ANCHOR_HOUR).toISOString();
    }
    enrol.mutate({ pathwayId: pathwayId!, anchorAt });
  };
  if (pathways.isError) return <ErrorAlert>{errorText(pathways.error)}</ErrorAlert>;
  if (!pathways.data) return <Loader aria-label={t('loading')} />;
  if (active.length === 0) return <Text c="dimmed">{t('card.noPathways')}</Text>;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack>
        <Select
          label={t('card.pathway')}
          data={active.map((row) => ({ value: row.id, label: row.isExample ? `${row.name} (${t('example')})` : row.name }))}
          value={pathwayId}
          onChange={setPathwayId}
          error={errors.pathway}
          required
          searchable
          data-testid="pathway-select"
        />
        <TextInput
          label={t('card.anchor')}
          description={t('card.anchorHelp')}
          placeholder="MM/DD/YYYY"
          maxLength={10}
          value={anchor}
          onChange={(event) => setAnchor(event.currentTarget.value)}
          error={errors.anchor}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={enrol.isPending} data-testid="pathway-enrol-submit">
            {t('card.enrol')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
