import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AudienceTemplatesPanel } from '../../features/outreach/templates/templates-panel';

/** /hotlisttemplatelist: the hot-list templates (saved like code pull templates, issue #15 §4). */
export function Component() {
  const { t } = useTranslation('outreachTemplates');
  return (
    <>
      <PageHeader title={t('list.title.hotlist')} />
      <AudienceTemplatesPanel kind="hotlist" />
    </>
  );
}
