import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { StaffSchedule } from '../../features/appointments/staff-schedule';
import { OutcomeFormsAction } from '../../features/questionnaires/outcome-forms-dialog';

/** /patients/staffappointments: the day's schedule by provider and room, with check-in actions. */
export function Component() {
  const { t } = useTranslation('appointments');
  return (
    <>
      <PageHeader title={t('staffTitle')} description={t('staffDescription')} />
      <StaffSchedule
        rowAction={(row) => (
          <OutcomeFormsAction appointment={{ id: row.id, startsAt: row.startsAt, patientName: row.patient.fullName }} />
        )}
      />
    </>
  );
}
