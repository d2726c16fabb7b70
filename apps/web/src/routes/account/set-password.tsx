import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { AccountLayout } from '../../components/account-layout';
import { SetPasswordForm } from '../../features/auth/set-password-form';

/** Serves /set-password (welcome link) and /reset-password (forgotten password link). */
export function Component() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const isReset = useLocation().pathname.toLowerCase().startsWith('/reset-password');
  const mode = isReset ? 'reset' : 'set';
  return (
    <AccountLayout title={t(`setPassword.${mode}Title`)} subtitle={t(`setPassword.${mode}Subtitle`)}>
      <SetPasswordForm id={params.get('id') ?? ''} token={params.get('token') ?? ''} />
    </AccountLayout>
  );
}
