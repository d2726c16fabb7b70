import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AddClinicButton, ClinicList } from '../../features/instances/clinic-list';

export function Component() {
  const { t } = useTranslation('instances');
  return (
    <>
      <PageHeader title={t('clinics.title')} description={t('clinics.description')} actions={<AddClinicButton />} />
      <ClinicList />
    </>
  );
}
