import { useTranslation } from 'react-i18next';
import { AccountLayout } from '../../components/account-layout';
import { SignInForm } from '../../features/auth/sign-in-form';

export function Component() {
  const { t } = useTranslation('auth');
  return (
    <AccountLayout title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      <SignInForm />
    </AccountLayout>
  );
}
