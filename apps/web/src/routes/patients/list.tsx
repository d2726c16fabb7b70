import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { PatientList } from '../../features/patients/patient-list';
import { getDoctorId } from '../../lib/session-storage';

/**
 * Add New patient is for Staff and Doctor on this page, never in a parent's all-clinics view (section
 * 6); changes need one clinic; only Admin and System Manager delete.
 */
export function Component() {
  const { t } = useTranslation('patients');
  const session = useSession();
  const role = session.user.role;
  return (
    <>
      <PageHeader title={t('list.title')} description={t('list.description')} />
      <PatientList
        showAddNew={(role === 'Staff' || role === 'Doctor') && !session.allClinics}
        canChange={!session.allClinics}
        canDelete={(role === 'Admin' || role === 'SystemManager') && !session.allClinics}
        doctorId={role === 'Doctor' ? null : getDoctorId()}
      />
    </>
  );
}
