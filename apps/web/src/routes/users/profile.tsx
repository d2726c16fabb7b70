import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AccountLayout } from '../../components/account-layout';
import { UserProfileView } from '../../features/users/user-profile';

export function Component() {
  const { t } = useTranslation('users');
  const { id = '' } = useParams();
  return (
    <AccountLayout title={t('profile.title')}>
      <UserProfileView id={id} />
    </AccountLayout>
  );
}
