import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { ChangePasswordForm } from '../../features/auth/change-password-form';

export function Component() {
  const { t } = useTranslation('account');
  const session = useSession();
  return (
    <>
      <PageHeader title={t('changePassword.title')} description={t('changePassword.description')} />
      <ChangePasswordForm userId={session.user.id} />
    </>
  );
}
