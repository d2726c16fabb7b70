import { Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { UnauthorizedPage } from '../../app/error-pages/error-pages';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { UserForm } from '../../features/users/user-form';
import { fullName } from '../../features/users/user-list';
import { userQueries } from '../../features/users/users.api';
import { errorText } from '../../lib/error-text';

function EditUser({ id, actor }: { id: string; actor: { id: string; role: 'Admin' | 'SystemManager' } }) {
  const { t } = useTranslation('users');
  const user = useQuery(userQueries.detail(id));
  if (user.isError) {
    return (
      <>
        <PageHeader title={t('form.editTitle')} />
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="user-load-error">{errorText(user.error)}</ErrorAlert>
          <Button variant="light" onClick={() => void user.refetch()}>
            {t('list.retry')}
          </Button>
        </Stack>
      </>
    );
  }
  if (!user.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  if (!user.data.canManage) return <UnauthorizedPage />;
  return (
    <>
      <PageHeader title={t('form.editTitle')} description={fullName(user.data)} />
      <UserForm key={user.data.id} user={user.data} actor={actor} />
    </>
  );
}

export function Component() {
  const { t } = useTranslation('users');
  const session = useSession();
  const { id } = useParams();
  const role = session.user.role;
  // Doctors reach /users through the menu but only read it; the form is for those who manage users.
  if (role !== 'Admin' && role !== 'SystemManager') return <UnauthorizedPage />;
  const actor = { id: session.user.id, role };
  if (id) return <EditUser id={id} actor={actor} />;
  return (
    <>
      <PageHeader title={t('form.createTitle')} description={t('form.createDescription')} />
      <UserForm actor={actor} />
    </>
  );
}
