import { zodResolver } from '@hookform/resolvers/zod';
import { Accordion, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type FieldErrors, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  generalSettingGroups,
  instanceSettingsFormSchema,
  integrationGroups,
  integrationUseFlag,
  keysOfGroup,
  settingDefinitions,
  settingKeys,
  type InstanceSettingsForm as FormValues,
  type InstanceSettingsUpdate,
  type InstanceSettingsView,
  type IntegrationGroup,
  type SettingGroup,
  type SettingKey,
} from '@pathwell/contracts/instance-settings';
import { legalPagePaths, legalPages } from '@pathwell/contracts/legal-texts';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { sessionQueries } from '../session/session.api';
import { InstanceFilesSection, PrivateKeySlot } from './instance-files';
import { instanceSettingsApi, instanceSettingsQueries } from './instance-settings.api';
import { SettingField } from './setting-field';

type Control = ReturnType<typeof useForm<FormValues>>['control'];
type TabName = (typeof generalSettingGroups)[number] | 'integrations';
const tabs: TabName[] = [...generalSettingGroups, 'integrations'];
const isIntegration = (group: SettingGroup): group is IntegrationGroup =>
  (integrationGroups as readonly string[]).includes(group);
const fieldKeys = settingKeys.filter((key) => settingDefinitions.get(key)?.type !== 'file');

function formDefaults(view: InstanceSettingsView): FormValues {
  return { ...view.values } as FormValues;
}

function GroupFields({
  group,
  control,
  view,
  disabled = false,
}: {
  group: SettingGroup;
  control: Control;
  view: InstanceSettingsView;
  disabled?: boolean;
}) {
  const keys = keysOfGroup(group).filter((key) => settingDefinitions.get(key)?.type !== 'file');
  const switches = keys.filter((key) => settingDefinitions.get(key)?.type === 'boolean');
  const others = keys.filter((key) => settingDefinitions.get(key)?.type !== 'boolean');
  const field = (key: SettingKey) => (
    <SettingField
      key={key}
      name={key}
      control={control}
      disabled={disabled}
      secretIsSet={key in view.secrets ? view.secrets[key as keyof InstanceSettingsView['secrets']].isSet : false}
    />
  );
  return (
    <Stack gap="lg">
      {switches.length > 0 ? <SimpleGrid cols={{ base: 1, md: 2 }}>{switches.map(field)}</SimpleGrid> : null}
      {others.length > 0 ? <SimpleGrid cols={{ base: 1, md: 2 }}>{others.map(field)}</SimpleGrid> : null}
    </Stack>
  );
}

/** The terms and privacy texts: what they are for, and the pages patients see with this clinic's text. */
function LegalTextsIntro() {
  const { t } = useTranslation('settings');
  const clinicId = useQuery(sessionQueries.context()).data?.instance.id;
  const query = clinicId ? `?clinic=${encodeURIComponent(clinicId)}` : '';
  return (
    <Stack gap={4}>
      <Text size="sm">{t('document.intro')}</Text>
      <Group gap="md">
        {legalPages.map((page) => (
          <Anchor
            key={page}
            href={`${legalPagePaths[page]}${query}`}
            target="_blank"
            rel="noopener"
            size="sm"
            data-testid={`open-legal-${page}`}
          >
            {t(page === 'terms' ? 'document.openTerms' : 'document.openPrivacy')}
          </Anchor>
        ))}
      </Group>
    </Stack>
  );
}

/** One integration: its use-flag first; the rest stays disabled while the flag is off. */
function IntegrationPanel({ group, control, view }: { group: IntegrationGroup; control: Control; view: InstanceSettingsView }) {
  const { t } = useTranslation('settings');
  const useFlag = integrationUseFlag(group);
  const enabled = useWatch({ control, name: useFlag }) === true;
  const rest = keysOfGroup(group).filter((key) => key !== useFlag && settingDefinitions.get(key)?.type !== 'file');
  const secretIsSet = (key: SettingKey) =>
    key in view.secrets ? view.secrets[key as keyof InstanceSettingsView['secrets']].isSet : false;
  return (
    <Accordion.Item value={group} data-testid={`integration-${group}`}>
      <Accordion.Control>
        <Group gap="sm">
          <Text fw={600}>{t(`integrations.${group}`)}</Text>
          <Badge size="sm" variant="light" color={enabled ? 'teal' : 'gray'}>
            {enabled ? t('integrationOn') : t('integrationOff')}
          </Badge>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <SettingField name={useFlag} control={control} />
          {rest.length > 0 && !enabled ? (
            <Text size="sm" c="dimmed">
              {t('integrationOffHint', { name: t(`integrations.${group}`) })}
            </Text>
          ) : null}
          {rest.length > 0 ? (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {rest.map((key) => (
                <SettingField key={key} name={key} control={control} disabled={!enabled} secretIsSet={secretIsSet(key)} />
              ))}
            </SimpleGrid>
          ) : null}
          {group === 'eClinicalWorks' ? (
            <PrivateKeySlot file={view.files.eClinicalWorksBulkPrivateKey} disabled={!enabled} />
          ) : null}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** Only what the person touched goes to the server; secrets only when replaced or cleared. */
function changedValues(values: FormValues, dirty: Partial<Record<string, unknown>>): InstanceSettingsUpdate {
  const update: Record<string, unknown> = {};
  for (const key of fieldKeys) {
    if (!dirty[key]) continue;
    const value = (values as Record<string, unknown>)[key];
    if (value !== undefined) update[key] = value;
  }
  return update as InstanceSettingsUpdate;
}

export function InstanceSettingsForm({ view }: { view: InstanceSettingsView }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabName>('identity');
  const [openIntegrations, setOpenIntegrations] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Bumped after a save so that secret inputs start again from "Set / Not set".
  const [generation, setGeneration] = useState(0);
  const {
    control,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { isSubmitting, isDirty, dirtyFields },
  } = useForm<FormValues>({
    resolver: zodResolver(instanceSettingsFormSchema),
    defaultValues: formDefaults(view),
  });

  /** Shows the tab (and integration panel) holding the first field in error. */
  const revealField = (key: string | undefined) => {
    const group = key ? settingDefinitions.get(key)?.group : undefined;
    if (!group) return;
    if (isIntegration(group)) {
      setTab('integrations');
      setOpenIntegrations((open) => (open.includes(group) ? open : [...open, group]));
    } else {
      setTab(group as TabName);
    }
  };

  const onInvalid = (errors: FieldErrors<FormValues>) => {
    const first = fieldKeys.find((key) => key in errors);
    revealField(first);
    setError(t('fixErrors'));
  };

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const saved = await instanceSettingsApi.save(changedValues(values, dirtyFields as Record<string, unknown>));
      queryClient.setQueryData(instanceSettingsQueries.all().queryKey, saved);
      // Section 4: saving refetches the settings and the time-zone offset; the title and logo follow.
      await queryClient.invalidateQueries({ queryKey: sessionQueries.context().queryKey, exact: true });
      reset(formDefaults(saved));
      setGeneration((value) => value + 1);
      notify('success', t('saved'));
    } catch (failure) {
      const placed = applyServerFieldErrors(failure, setFieldError, fieldKeys as Path<FormValues>[]);
      if (placed) {
        revealField(Object.keys((failure as { fields?: Record<string, string> }).fields ?? {})[0]);
        setError(t('fixErrors'));
      } else {
        setError(errorText(failure));
      }
    }
  }, onInvalid);

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('page.title')} data-testid="instance-settings-form">
      <Stack gap="md">
        {error ? <ErrorAlert testId="instance-settings-error">{error}</ErrorAlert> : null}
        <Tabs
          key={generation}
          value={tab}
          onChange={(next) => next && setTab(next as TabName)}
          keepMounted={false}
          variant="outline"
        >
          <Tabs.List>
            {tabs.map((name) => (
              <Tabs.Tab key={name} value={name} data-testid={`tab-${name}`}>
                {t(`groups.${name}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((name) => (
            <Tabs.Panel key={name} value={name} pt="lg">
              <Paper withBorder p="lg" radius="md">
                {name === 'files' ? (
                  <InstanceFilesSection files={view.files} />
                ) : name === 'integrations' ? (
                  <Accordion multiple value={openIntegrations} onChange={setOpenIntegrations} variant="separated">
                    {integrationGroups.map((group) => (
                      <IntegrationPanel key={group} group={group} control={control} view={view} />
                    ))}
                  </Accordion>
                ) : name === 'legalTexts' ? (
                  <Stack gap="lg">
                    <LegalTextsIntro />
                    <GroupFields group={name} control={control} view={view} />
                  </Stack>
                ) : (
                  <GroupFields group={name} control={control} view={view} />
                )}
              </Paper>
            </Tabs.Panel>
          ))}
        </Tabs>
        <Paper
          withBorder
          p="sm"
          radius="md"
          style={{ position: 'sticky', bottom: 0, zIndex: 2 }}
          data-testid="instance-settings-save-bar"
        >
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {isDirty ? t('unsavedChanges') : t('filesSaveThemselves')}
            </Text>
            <Group gap="xs">
              <Button variant="default" disabled={!isDirty || isSubmitting} onClick={() => reset(formDefaults(view))}>
                {t('discard')}
              </Button>
              <Button type="submit" loading={isSubmitting} disabled={!isDirty} data-testid="instance-settings-save">
                {t('save')}
              </Button>
            </Group>
          </Group>
        </Paper>
      </Stack>
    </form>
  );
}
