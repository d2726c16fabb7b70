import { useTranslation } from 'react-i18next';
import { AccountLayout } from '../../components/account-layout';
import { SignUpForm } from '../../features/auth/sign-up-form';

export function Component() {
  const { t } = useTranslation('auth');
  return (
    <AccountLayout title={t('signUp.title')} subtitle={t('signUp.subtitle')}>
      <SignUpForm />
    </AccountLayout>
  );
}
