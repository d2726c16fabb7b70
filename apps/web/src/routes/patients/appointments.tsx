import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AppointmentsView } from '../../features/appointments/appointments-view';

/** /patients/appointments: the clinic's appointments, filtered and paged (section 3 filter, section 9 defaults). */
export function Component() {
  const { t } = useTranslation('appointments');
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <AppointmentsView />
    </>
  );
}
