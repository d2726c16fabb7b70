import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { AddUserButton, UserList } from '../../features/users/user-list';

/** Doctors see the list read-only; Admins and System Managers manage it (docs/decisions/0009). */
export function Component() {
  const { t } = useTranslation('users');
  const session = useSession();
  const canManageUsers = session.user.role === 'Admin' || session.user.role === 'SystemManager';
  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={canManageUsers ? t('list.description') : t('list.readOnly')}
        actions={canManageUsers ? <AddUserButton /> : null}
      />
      <UserList canManageUsers={canManageUsers} currentUserId={session.user.id} />
    </>
  );
}
