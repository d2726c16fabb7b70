import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SummaryExportRequest, SummaryFilter } from '@pathwell/contracts/reports-summary';
import { errorText } from '../../../lib/error-text';
import { currentLanguage } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { sandboxApi } from './sandbox.api';

type Choice = Pick<SummaryExportRequest, 'level' | 'format'>;

const choices: (Choice & { key: string })[] = [
  { key: 'aggregateCsv', level: 'aggregate', format: 'csv' },
  { key: 'aggregateXlsx', level: 'aggregate', format: 'xlsx' },
  { key: 'patientsCsv', level: 'patients', format: 'csv' },
  { key: 'patientsXlsx', level: 'patients', format: 'xlsx' },
];

/** Exports the report on screen (the last applied filter), with headings in the user's language. */
export function ExportMenu({ filter }: { filter: SummaryFilter | null }) {
  const { t } = useTranslation('reportsSandbox');
  const download = useMutation({
    mutationFn: (choice: Choice) => sandboxApi.export({ filter: filter!, ...choice, language: currentLanguage() }),
    onError: (failure) => notify('error', errorText(failure)),
  });
  return (
    <Menu position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          disabled={filter === null}
          loading={download.isPending}
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          data-testid="sandbox-export"
        >
          {t('export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {choices.map((choice) => (
          <Menu.Item key={choice.key} onClick={() => download.mutate(choice)} data-testid={`sandbox-export-${choice.key}`}>
            {t(`export.${choice.key}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
