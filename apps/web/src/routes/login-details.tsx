import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { LoginDetailsView } from '../features/activity/activity-log-view';

/** /logindetails: the 'Login Activity' part of the log (System Manager and Admin). */
export function Component() {
  const { t } = useTranslation('activity');
  return (
    <>
      <PageHeader title={t('loginTitle')} description={t('loginDescription')} />
      <LoginDetailsView />
    </>
  );
}
