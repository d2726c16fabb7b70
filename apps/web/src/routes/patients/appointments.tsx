import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AppointmentsView } from '../../features/appointments/appointments-view';
import { OutcomeFormsAction } from '../../features/questionnaires/outcome-forms-dialog';

/** /patients/appointments: the clinic's appointments, filtered and paged (section 3 filter, section 9 defaults). */
export function Component() {
  const { t } = useTranslation('appointments');
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <AppointmentsView
        rowAction={(row) => (
          <OutcomeFormsAction appointment={{ id: row.id, startsAt: row.startsAt, patientName: row.patient.fullName }} />
        )}
      />
    </>
  );
}
