import { Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { UnauthorizedPage } from '../../app/error-pages/error-pages';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { InstanceCreateForm, InstanceEditForm } from '../../features/instances/instance-form';
import { instanceQueries } from '../../features/instances/instances.api';
import { errorText } from '../../lib/error-text';

function EditInstance({ id }: { id: string }) {
  const { t } = useTranslation('instances');
  const instance = useQuery(instanceQueries.detail(id));
  if (instance.isError) {
    return (
      <>
        <PageHeader title={t('instances.editTitle')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="instance-load-error">{errorText(instance.error)}</ErrorAlert>
          <Button variant="light" onClick={() => void instance.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </>
    );
  }
  if (!instance.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  return (
    <>
      <PageHeader title={t('instances.editTitle')} description={instance.data.name} />
      <InstanceEditForm key={instance.data.id} instance={instance.data} />
    </>
  );
}

export function Component() {
  const { t } = useTranslation('instances');
  const session = useSession();
  const { id } = useParams();
  if (id) return <EditInstance id={id} />;
  // Only a System Manager creates instances (docs/decisions/0010).
  if (session.user.role !== 'SystemManager') return <UnauthorizedPage />;
  return (
    <>
      <PageHeader title={t('instances.createTitle')} />
      <InstanceCreateForm />
    </>
  );
}
