import { Button, Center, Loader, Stack } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { PumpRefillsDueCard } from '../../features/interventions/pump-refills-card';
import { ClinicDay } from '../../features/patient-dashboard/clinic-day';
import { patientDashboardQueries } from '../../features/patient-dashboard/patient-dashboard.api';
import { ProcedureNotesTodo } from '../../features/procedure-notes/procedure-notes-card';
import { getDoctorId } from '../../lib/session-storage';

/** /patients/dashboard: the clinic's day for the doctor of the top-bar selector, or for everyone. */
export function Component() {
  const { t } = useTranslation('patientDashboard');
  const timeZone = useSession().instance.timeZoneId;
  // The selector reloads the page when it changes (section 4), so reading it once per visit is enough.
  const dashboard = useQuery(patientDashboardQueries.clinic(getDoctorId()));
  return (
    <>
      <PageHeader title={t('clinic.title')} description={t('clinic.description')} />
      {dashboard.isError ? (
        <Stack gap="sm" align="flex-start">
          {/* Section 8: a dashboard that did not load says so in these words. */}
          <ErrorAlert testId="patients-dashboard-error">{t('errors:texts.dashboardFailed')}</ErrorAlert>
          <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void dashboard.refetch()}>
            {t('clinic.retry')}
          </Button>
        </Stack>
      ) : !dashboard.data ? (
        <Center py="xl">
          <Loader aria-label={t('clinic.loading')} />
        </Center>
      ) : (
        <>
          <ProcedureNotesTodo />
          <PumpRefillsDueCard />
          <ClinicDay dashboard={dashboard.data} timeZone={timeZone} />
        </>
      )}
    </>
  );
}
