import { Anchor, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { mdyToIso } from '@pathwell/contracts/patients';
import { ID_PATTERN } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { InterventionForm } from '../../features/interventions/intervention-form';
import { interventionQueries } from '../../features/interventions/interventions.api';
import { clinicToday } from '../../lib/dates';
import { notify } from '../../lib/notify';

/**
 * /patients/intervention/interventionform/:id/:patientid — `id` is the record to change, or `new`
 * (any value that is not an id) to record one; `?appointmentId=` ties a new record to a visit.
 */
export function Component() {
  const { t } = useTranslation('interventions');
  const { id = '', patientid: patientId = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const timeZone = useSession().instance.timeZoneId;
  const isExisting = ID_PATTERN.test(id);
  const info = useQuery(interventionQueries.formInfo(patientId));
  const existing = useQuery({ ...interventionQueries.one(id), enabled: isExisting });
  const dashboard = `/patients/patientdashboard/${patientId}`;

  const failed = info.isError || existing.isError;
  const ready = info.data && (!isExisting || existing.data);
  return (
    <>
      <PageHeader
        title={isExisting ? t('form.editTitle') : t('form.title')}
        description={info.data ? t('form.for', { name: info.data.patient.name }) : undefined}
      />
      {failed ? (
        <Stack align="flex-start">
          <ErrorAlert testId="intervention-form-error">{t('form.loadFailed')}</ErrorAlert>
          <Anchor component={Link} to={dashboard}>
            {t('form.backToPatient')}
          </Anchor>
        </Stack>
      ) : !ready ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : (
        <InterventionForm
          patientId={patientId}
          info={info.data!}
          existing={isExisting ? existing.data! : null}
          defaults={{ appointmentId: search.get('appointmentId'), today: mdyToIso(clinicToday(timeZone)) ?? '' }}
          onCancel={() => void navigate(dashboard)}
          onSaved={(saved) => {
            notify('success', t('form.saved'));
            // With procedure notes on, the provider goes straight on to review and sign the note.
            if (!isExisting && info.data!.procedureNotesEnabled && saved.provider) {
              void navigate(`/patients/procedurenoteform/${saved.id}/${patientId}/${saved.provider.id}/${saved.kind}`);
            } else void navigate(dashboard);
          }}
        />
      )}
    </>
  );
}
