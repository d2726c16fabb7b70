import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { ActivityLogView } from '../features/activity/activity-log-view';

/** /activitylogs: the clinic's tamper-evident activity log (System Manager and Admin). */
export function Component() {
  const { t } = useTranslation('activity');
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <ActivityLogView />
    </>
  );
}
