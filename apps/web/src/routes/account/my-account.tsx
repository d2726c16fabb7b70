import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/error-text';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { accountQueries } from '../../features/account/account.api';
import { MyAccountForm } from '../../features/account/my-account-form';

export function Component() {
  const { t } = useTranslation('account');
  const session = useSession();
  const profile = useQuery(accountQueries.profile(session.user.id));
  return (
    <>
      <PageHeader title={t('myAccount.title')} description={t('myAccount.description')} />
      {profile.data ? (
        <MyAccountForm key={profile.data.id} profile={profile.data} />
      ) : profile.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorText(profile.error)}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      )}
    </>
  );
}
