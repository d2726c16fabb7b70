import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { instanceSettingsQueries } from '../../features/instance-settings/instance-settings.api';
import { InstanceSettingsForm } from '../../features/instance-settings/instance-settings-form';
import { errorText } from '../../lib/error-text';

export function Component() {
  const { t } = useTranslation('settings');
  const settings = useQuery(instanceSettingsQueries.all());
  return (
    <>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      {settings.data ? (
        <InstanceSettingsForm view={settings.data} />
      ) : settings.isError ? (
        <ErrorAlert testId="instance-settings-load-error">{errorText(settings.error)}</ErrorAlert>
      ) : (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      )}
    </>
  );
}
