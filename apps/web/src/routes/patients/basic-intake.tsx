import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { BasicIntake } from '../../features/intake/basic-intake';

/** /patients/basicintake, "New Patient" in the side menu. */
export function Component() {
  const { t } = useTranslation('intakeStaff');
  return (
    <>
      <PageHeader title={t('pageTitle')} />
      <BasicIntake />
    </>
  );
}
