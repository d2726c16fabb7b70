import { Anchor, Button, Center, Grid, Loader, Stack } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { AppointmentTimeline } from '../../features/patient-dashboard/appointment-timeline';
import { ProceduresCard } from '../../features/interventions/procedures-card';
import { DemographicsCard } from '../../features/patient-dashboard/demographics-card';
import { OptionalMessagesCard } from '../../features/patient-dashboard/optional-messages-card';
import { PainTrendChart } from '../../features/patient-dashboard/pain-trend-chart';
import { PatientPathwaysCard } from '../../features/pathways/patient-pathways-card';
import { patientDashboardQueries } from '../../features/patient-dashboard/patient-dashboard.api';
import { PatientMessages } from '../../features/patient-dashboard/patient-messages';
import { AccessRequestsCard } from '../../features/intake/access-requests-card';
import { ConsentsCard } from '../../features/intake/consents-card';
import { MedicinesCard } from '../../features/medicines/medicines-card';
import { PatientIntakeCard } from '../../features/intake/patient-intake-card';
import { PatientNotes } from '../../features/patient-dashboard/patient-notes';
import { ProcedureNotesCard } from '../../features/procedure-notes/procedure-notes-card';
import { QuestionnairesPanel } from '../../features/questionnaires/questionnaires-panel';
import { ApiError } from '../../lib/api-client';

/** /patients/patientdashboard/:id: one patient's record at a glance (opening it is logged as Viewed). */
export function Component() {
  const { t } = useTranslation('patientDashboard');
  const { id = '' } = useParams();
  const timeZone = useSession().instance.timeZoneId;
  const dashboard = useQuery(patientDashboardQueries.patient(id));

  if (dashboard.isError) {
    const missing = dashboard.error instanceof ApiError && (dashboard.error.status === 404 || dashboard.error.status === 400);
    return (
      <>
        <PageHeader title={t('patient.title')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="patient-dashboard-error">
            {missing ? t('patient.notFound') : t('errors:texts.dashboardFailed')}
          </ErrorAlert>
          {missing ? (
            <Anchor component={Link} to="/patients/list">
              {t('patient.backToList')}
            </Anchor>
          ) : (
            <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void dashboard.refetch()}>
              {t('clinic.retry')}
            </Button>
          )}
        </Stack>
      </>
    );
  }
  if (!dashboard.data) {
    return (
      <>
        <PageHeader title={t('patient.title')} />
        <Center py="xl">
          <Loader aria-label={t('patient.loading')} />
        </Center>
      </>
    );
  }

  const data = dashboard.data;
  const { firstName, middleName, lastName } = data.demographics;
  return (
    <>
      <PageHeader title={[firstName, middleName, lastName].filter(Boolean).join(' ')} description={t('patient.title')} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            <AccessRequestsCard patientId={data.demographics.id} timeZone={timeZone} />
            <DemographicsCard patient={data.demographics} />
            {data.demographics.optionalMessages ? (
              <OptionalMessagesCard
                key={`${data.demographics.optionalMessages.email}-${data.demographics.optionalMessages.text}`}
                patientId={data.demographics.id}
                choice={data.demographics.optionalMessages}
              />
            ) : null}
            <PatientIntakeCard patientId={data.demographics.id} timeZone={timeZone} />
            <ConsentsCard patientId={data.demographics.id} timeZone={timeZone} />
            <MedicinesCard patientId={data.demographics.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            <PainTrendChart patientId={data.demographics.id} timeZone={timeZone} />
            <PatientPathwaysCard patientId={data.demographics.id} timeZone={timeZone} />
            <ProceduresCard patientId={data.demographics.id} />
            <AppointmentTimeline
              appointments={data.appointments}
              total={data.appointmentsTotal}
              timeZone={timeZone}
              patientId={data.demographics.id}
            />
            <PatientNotes patientId={data.demographics.id} notes={data.notes} timeZone={timeZone} />
            <ProcedureNotesCard patientId={data.demographics.id} />
            <PatientMessages patientId={data.demographics.id} timeZone={timeZone} />
          </Stack>
        </Grid.Col>
        {/* Full width: the response table and one chart per form need the room. */}
        <Grid.Col span={12}>
          <QuestionnairesPanel patientId={data.demographics.id} appointments={data.appointments} timeZone={timeZone} />
        </Grid.Col>
      </Grid>
    </>
  );
}
