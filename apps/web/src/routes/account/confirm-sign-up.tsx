import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AccountLayout } from '../../components/account-layout';
import { ConfirmSignUp } from '../../features/auth/confirm-sign-up';

export function Component() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  return (
    <AccountLayout title={t('confirmSignUp.title')}>
      <ConfirmSignUp id={params.get('id') ?? ''} token={params.get('token') ?? ''} />
    </AccountLayout>
  );
}
