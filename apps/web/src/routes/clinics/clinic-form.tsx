import { Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { UnauthorizedPage } from '../../app/error-pages/error-pages';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ClinicForm } from '../../features/instances/clinic-form';
import { clinicQueries } from '../../features/instances/instances.api';
import { errorText } from '../../lib/error-text';

function EditClinic({ id }: { id: string }) {
  const { t } = useTranslation('instances');
  const organisation = useQuery(clinicQueries.detail(id));
  if (organisation.isError) {
    return (
      <>
        <PageHeader title={t('clinics.editTitle')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="clinic-load-error">{errorText(organisation.error)}</ErrorAlert>
          <Button variant="light" onClick={() => void organisation.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </>
    );
  }
  if (!organisation.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  if (!organisation.data.canManage) return <UnauthorizedPage />;
  return (
    <>
      <PageHeader title={t('clinics.editTitle')} description={organisation.data.name} />
      <ClinicForm key={organisation.data.id} organisation={organisation.data} />
    </>
  );
}

export function Component() {
  const { t } = useTranslation('instances');
  const { id } = useParams();
  if (id) return <EditClinic id={id} />;
  return (
    <>
      <PageHeader title={t('clinics.createTitle')} />
      <ClinicForm />
    </>
  );
}
