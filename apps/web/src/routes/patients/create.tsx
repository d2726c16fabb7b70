import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useSession } from '../../app/session-context';
import { PageHeader } from '../../components/page-header';
import { PatientFormPage } from '../../features/patients/patient-form';

/** /patients/create/{id}: `0` or `new` creates, an id edits. */
export function Component() {
  const { t } = useTranslation('patients');
  const { id = 'new' } = useParams();
  const session = useSession();
  const creating = id === '0' || id === 'new';
  return (
    <>
      <PageHeader title={creating ? t('form.createTitle') : t('form.editTitle')} />
      <PatientFormPage id={creating ? null : id} isDoctor={session.user.role === 'Doctor'} doctorUserId={session.user.id} />
    </>
  );
}
