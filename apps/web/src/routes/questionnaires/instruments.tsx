import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { InstrumentWording } from '../../features/questionnaires/instrument-wording';

/** /instruments (System Manager): licensed wording of the outcome forms, imported per clinic. */
export function Component() {
  const { t } = useTranslation('questionnaires');
  return (
    <>
      <PageHeader title={t('wording.title')} description={t('wording.description')} />
      <InstrumentWording />
    </>
  );
}
