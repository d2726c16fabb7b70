import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AddCustomFormButton, CustomFormList } from '../../features/custom-forms/custom-form-list';

export function Component() {
  const { t } = useTranslation('customForms');
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={<AddCustomFormButton />} />
      <CustomFormList />
    </>
  );
}
