import { useTranslation } from 'react-i18next';
import { AccountLayout } from '../../components/account-layout';
import { ForgetPasswordForm } from '../../features/auth/forget-password-form';

export function Component() {
  const { t } = useTranslation('auth');
  return (
    <AccountLayout title={t('forgetPassword.title')} subtitle={t('forgetPassword.subtitle')}>
      <ForgetPasswordForm />
    </AccountLayout>
  );
}
