import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { CodeGroupsPanel } from '../../features/outreach/code-groups/code-groups-panel';
import { EncounterImport } from '../../features/outreach/imports/encounter-import';
import { AudienceTemplatesPanel } from '../../features/outreach/templates/templates-panel';

const tabs = ['templates', 'codeGroups', 'imports'] as const;
type Tab = (typeof tabs)[number];
const isTab = (value: string | null): value is Tab => (tabs as readonly (string | null)[]).includes(value);

/**
 * /templateList (System Manager and Admin): code pull templates, the code groups they reuse, and the
 * encounter imports the codes come from (issue #15 §1–2). The open tab is kept in `?tab=`.
 */
export function Component() {
  const { t } = useTranslation('outreachImports');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'templates';
  return (
    <>
      <PageHeader title={t('pageTitle')} />
      <Tabs
        value={tab}
        onChange={(value) => {
          if (isTab(value)) setParams(value === 'templates' ? {} : { tab: value }, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="templates">{t('tabs.templates')}</Tabs.Tab>
          <Tabs.Tab value="codeGroups">{t('tabs.codeGroups')}</Tabs.Tab>
          <Tabs.Tab value="imports">{t('tabs.imports')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates">
          <AudienceTemplatesPanel kind="campaign" />
        </Tabs.Panel>
        <Tabs.Panel value="codeGroups">
          <CodeGroupsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="imports">
          <EncounterImport />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
