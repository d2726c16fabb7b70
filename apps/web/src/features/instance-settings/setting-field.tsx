import {
  Badge,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useController, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  currentOffsetHours,
  DOCUMENT_MAX_LENGTH,
  isTimeZoneId,
  outcomeForms,
  settingDefinitions,
  type FormId,
  type InstanceSettingsForm,
  type SettingKey,
} from '@pathwell/contracts/instance-settings';
import { translateValidation } from '../../lib/i18n';
import { useFormAvailability } from '../questionnaires/form-availability';

type FormControl = Control<InstanceSettingsForm>;

const outcomeFormOptions = outcomeForms.map((form) => ({ value: String(form.id), label: `${form.id} · ${form.name}` }));

/** The outcome forms, a form the clinic cannot give disabled and marked (decision 0061). */
function useOutcomeFormOptions(keep: readonly string[] = []) {
  const availability = useFormAvailability();
  return outcomeFormOptions.map((option) => {
    const code = Number(option.value);
    // One already stored stays selectable, so it can be removed.
    return availability.isUnavailable(code)
      ? { ...option, label: availability.label(code, option.label), disabled: !keep.includes(option.value) }
      : option;
  });
}

/** A pasted "1, 7" becomes two tags, whatever way it reached the input. */
const splitTags = (tags: string[]) => [...new Set(tags.flatMap((tag) => tag.split(/[,;\s]+/)).filter(Boolean))];

function timeZoneOptions(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
  return current && !all.includes(current) ? [current, ...all] : all;
}

/** A write-only secret: shows whether one is stored; Replace types a new one, Clear removes it on save. */
function SecretField({
  name,
  control,
  isSet,
  disabled,
}: {
  name: SettingKey;
  control: FormControl;
  isSet: boolean;
  disabled: boolean;
}) {
  const { t } = useTranslation('settings');
  const { field, fieldState } = useController({ name: name as keyof InstanceSettingsForm, control });
  const [replacing, setReplacing] = useState(false);
  const value = field.value as string | null | undefined;
  const label = t(`fields.${name}`);
  const status = (
    <Badge size="sm" variant="light" color={isSet ? 'teal' : 'gray'} data-testid={`secret-status-${name}`}>
      {isSet ? t('secret.set') : t('secret.notSet')}
    </Badge>
  );

  if (value === null) {
    return (
      <Stack gap={4}>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {label}
          </Text>
          <Badge size="sm" variant="light" color="orange">
            {t('secret.willClear')}
          </Badge>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={disabled} onClick={() => field.onChange(undefined)}>
            {t('secret.undo')}
          </Button>
        </Group>
      </Stack>
    );
  }

  if (isSet && !replacing) {
    return (
      <Stack gap={4}>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {label}
          </Text>
          {status}
        </Group>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            disabled={disabled}
            onClick={() => setReplacing(true)}
            aria-label={`${t('secret.replace')}: ${label}`}
          >
            {t('secret.replace')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            disabled={disabled}
            onClick={() => field.onChange(null)}
            aria-label={`${t('secret.clear')}: ${label}`}
          >
            {t('secret.clear')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap={4}>
      <PasswordInput
        label={
          <Group gap="xs" component="span">
            <span>{label}</span>
            {status}
          </Group>
        }
        description={t('secret.help')}
        placeholder={t('secret.placeholder')}
        autoComplete="new-password"
        disabled={disabled}
        value={value ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        onBlur={field.onBlur}
        error={translateValidation(fieldState.error?.message)}
        data-testid={`setting-${name}`}
      />
      {isSet ? (
        <Group gap="xs">
          <Button
            size="xs"
            variant="subtle"
            onClick={() => {
              field.onChange(undefined);
              setReplacing(false);
            }}
          >
            {t('secret.cancel')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function FormIdsField({ name, control, disabled }: { name: SettingKey; control: FormControl; disabled: boolean }) {
  const { t } = useTranslation('settings');
  const { field, fieldState } = useController({ name: name as keyof InstanceSettingsForm, control });
  const value = (field.value as FormId[] | undefined) ?? [];
  const outcome = value.filter((id): id is number => typeof id === 'number').map(String);
  const custom = value.filter((id): id is string => typeof id === 'string');
  const error = translateValidation(fieldState.error?.message);
  const options = useOutcomeFormOptions(outcome);
  const availability = useFormAvailability();
  return (
    <Stack gap="xs">
      <MultiSelect
        label={`${t(`fields.${name}`)}: ${t('forms.outcome')}`}
        description={availability.help}
        data={options}
        value={outcome}
        onChange={(next) => field.onChange([...next.map(Number), ...custom])}
        searchable
        clearable
        disabled={disabled}
        error={error}
        data-testid={`setting-${name}`}
      />
      <TagsInput
        label={`${t(`fields.${name}`)}: ${t('forms.custom')}`}
        description={t('forms.customHelp')}
        value={custom}
        onChange={(next) => field.onChange([...outcome.map(Number), ...splitTags(next)])}
        splitChars={[',', ' ']}
        disabled={disabled}
        data-testid={`setting-${name}-custom`}
      />
    </Stack>
  );
}

function TimeZoneOffsetHint({
  control,
  onUse,
  disabled,
}: {
  control: FormControl;
  onUse: (hours: number) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('settings');
  const zone = useWatch({ control, name: 'timeZoneId' });
  if (!zone || !isTimeZoneId(zone)) return null;
  const offset = currentOffsetHours(zone);
  return (
    <Button size="compact-xs" variant="subtle" disabled={disabled} onClick={() => onUse(offset)} data-testid="use-zone-offset">
      {t('timeZone.useOffset', { zone, offset })}
    </Button>
  );
}

/** One setting, drawn by its catalogue type. */
export function SettingField({
  name,
  control,
  disabled = false,
  secretIsSet = false,
}: {
  name: SettingKey;
  control: FormControl;
  disabled?: boolean;
  secretIsSet?: boolean;
}) {
  const type = settingDefinitions.get(name)?.type;
  if (!type || type === 'file') return null;
  if (type === 'secret') return <SecretField name={name} control={control} isSet={secretIsSet} disabled={disabled} />;
  if (type === 'formIds') return <FormIdsField name={name} control={control} disabled={disabled} />;
  return <PlainField name={name} control={control} disabled={disabled} />;
}

function PlainField({ name, control, disabled }: { name: SettingKey; control: FormControl; disabled: boolean }) {
  const { t, i18n } = useTranslation('settings');
  const def = settingDefinitions.get(name)!;
  const { field, fieldState } = useController({ name: name as keyof InstanceSettingsForm, control });
  const zones = useMemo(
    () => (def.type === 'timeZone' ? timeZoneOptions(String(field.value ?? '')) : []),
    [def.type, field.value],
  );
  const formOptions = useOutcomeFormOptions(field.value === null || field.value === undefined ? [] : [String(field.value)]);
  const label = t(`fields.${name}`);
  const error = translateValidation(fieldState.error?.message);
  const common = { label, disabled, error, onBlur: field.onBlur, 'data-testid': `setting-${name}` };
  const text = (field.value as string | undefined) ?? '';

  switch (def.type) {
    case 'boolean':
      return (
        <Switch
          label={label}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          disabled={disabled}
          error={error}
          data-testid={`setting-${name}`}
        />
      );
    case 'number':
    case 'integer': {
      const input = (
        <NumberInput
          {...common}
          description={def.unit ? t(`units.${def.unit}`) : undefined}
          value={(field.value as number | null | undefined) ?? ''}
          onChange={(next) => field.onChange(next === '' ? null : Number(next))}
          min={def.min}
          max={def.max}
          step={def.step ?? 1}
          allowDecimal={def.type === 'number'}
          required={def.required}
        />
      );
      if (name !== 'timeZoneOffsetHours') return input;
      return (
        <Stack gap={2}>
          {input}
          <div>
            <TimeZoneOffsetHint control={control} onUse={field.onChange} disabled={disabled} />
          </div>
        </Stack>
      );
    }
    case 'formId':
      return (
        <Select
          {...common}
          data={
            field.value !== null && field.value !== undefined && typeof field.value === 'string'
              ? [...formOptions, { value: field.value, label: field.value }]
              : formOptions
          }
          value={field.value === null || field.value === undefined ? null : String(field.value)}
          onChange={(next) => field.onChange(next === null ? null : /^\d+$/.test(next) ? Number(next) : next)}
          clearable
          searchable
        />
      );
    case 'timeZone':
      return (
        <Select
          {...common}
          data={zones}
          value={text || null}
          onChange={(next) => field.onChange(next ?? '')}
          placeholder={t('timeZone.placeholder')}
          searchable
          clearable
          limit={400}
          nothingFoundMessage={t('timeZone.nothingFound')}
        />
      );
    case 'emailList':
    case 'referenceList':
    case 'codeList':
      return (
        <TagsInput
          {...common}
          description={t('list.help')}
          value={(field.value as string[] | undefined) ?? []}
          onChange={(next) => field.onChange(splitTags(next))}
          splitChars={[',', ' ', ';']}
          clearable
        />
      );
    case 'longText':
      return (
        <Textarea
          {...common}
          value={text}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={10}
        />
      );
    case 'document': {
      const number = (value: number) => value.toLocaleString(i18n.language === 'es' ? 'es-ES' : 'en-US');
      return (
        <Stack gap={4}>
          <Textarea
            {...common}
            description={t('document.help')}
            value={text}
            onChange={(event) => field.onChange(event.currentTarget.value)}
            rows={12}
            resize="vertical"
          />
          <Text
            size="xs"
            c={text.length > DOCUMENT_MAX_LENGTH ? 'red' : 'dimmed'}
            ta="right"
            data-testid={`setting-${name}-count`}
          >
            {t('document.count', { length: number(text.length), max: number(DOCUMENT_MAX_LENGTH) })}
          </Text>
        </Stack>
      );
    }
    case 'usState':
      return (
        <TextInput
          {...common}
          value={text}
          onChange={(event) => field.onChange(event.currentTarget.value.toUpperCase())}
          maxLength={2}
          styles={{ input: { width: 96 } }}
          autoComplete="off"
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          value={text}
          onChange={(event) => field.onChange(event.currentTarget.value)}
          placeholder={t('date.placeholder')}
        />
      );
    case 'email':
    case 'phone':
    case 'url':
    case 'text':
    case 'reference': {
      const inputType = def.type === 'email' ? 'email' : def.type === 'phone' ? 'tel' : def.type === 'url' ? 'url' : 'text';
      return (
        <TextInput {...common} type={inputType} value={text} onChange={(event) => field.onChange(event.currentTarget.value)} />
      );
    }
    case 'formIds':
    case 'secret':
    case 'file':
      return null;
  }
}
