import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, type Control, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  managedItemInputSchemaFor,
  type FieldDescriptor,
  type ManagedItem,
  type ManagedListDefinition,
} from '@pathwell/contracts/managed-lists';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { optionLabel } from './managed-list-shared';

/** What the inputs hold: a number input may hold half-typed text ("1.") until it is complete. */
type ItemFormValues = {
  name: string;
  isActive: boolean;
  sortOrder: number | string;
  attributes: Record<string, unknown>;
};
/** What the list's schema hands over once the form is valid. */
export type ItemFormOutput = {
  name: string;
  isActive: boolean;
  sortOrder: number;
  attributes: Record<string, unknown>;
};

function initialValues(list: ManagedListDefinition, item: ManagedItem | null): ItemFormValues {
  const attributes: Record<string, unknown> = {};
  for (const field of list.fields) {
    const stored = item?.attributes[field.name];
    attributes[field.name] = stored ?? (field.kind === 'boolean' ? false : undefined);
  }
  return { name: item?.name ?? '', isActive: item?.isActive ?? true, sortOrder: item?.sortOrder ?? 0, attributes };
}

function AttributeInput({
  field,
  control,
  errors,
}: {
  field: FieldDescriptor;
  control: Control<ItemFormValues>;
  errors: FieldErrors<ItemFormValues>;
}) {
  const { t, i18n } = useTranslation('lists');
  const label = t(field.labelKey);
  const description = field.helpKey ? t(field.helpKey) : undefined;
  const fieldErrors = errors.attributes as Record<string, { message?: string } | undefined> | undefined;
  const error = translateValidation(fieldErrors?.[field.name]?.message);
  const testId = `field-${field.name}`;
  return (
    <Controller
      control={control}
      name={`attributes.${field.name}`}
      render={({ field: input }) => {
        switch (field.kind) {
          case 'boolean':
            return (
              <Switch
                label={label}
                description={description}
                checked={input.value === true}
                onChange={(event) => input.onChange(event.currentTarget.checked)}
                onBlur={input.onBlur}
                ref={input.ref}
                error={error}
                data-testid={testId}
              />
            );
          case 'number':
            return (
              <NumberInput
                label={label}
                description={description}
                required={field.required}
                value={typeof input.value === 'number' || typeof input.value === 'string' ? input.value : ''}
                // A half-typed number ("1.", "-") stays text until it is complete; empty means "not given".
                onChange={(value) => input.onChange(value === '' ? undefined : value)}
                onBlur={input.onBlur}
                ref={input.ref}
                min={field.min}
                max={field.max}
                decimalScale={field.decimals}
                allowDecimal={field.decimals > 0}
                error={error}
                data-testid={testId}
              />
            );
          case 'select':
            return (
              <Select
                label={label}
                description={description}
                required={field.required}
                placeholder={t('form.choose')}
                data={field.options.map((option) => ({
                  value: String(option.value),
                  label: optionLabel(option, i18n.language) ?? '',
                }))}
                value={input.value === undefined || input.value === null ? null : String(input.value)}
                // The option's own value goes back, so numeric enumerations stay numbers.
                onChange={(value) => input.onChange(field.options.find((option) => String(option.value) === value)?.value)}
                onBlur={input.onBlur}
                ref={input.ref}
                clearable={!field.required}
                searchable={field.options.length > 8}
                error={error}
                data-testid={testId}
              />
            );
          case 'textarea':
            return (
              <Textarea
                label={label}
                description={description}
                required={field.required}
                rows={3}
                maxLength={field.maxLength}
                value={typeof input.value === 'string' ? input.value : ''}
                onChange={(event) => input.onChange(event.currentTarget.value)}
                onBlur={input.onBlur}
                ref={input.ref}
                error={error}
                data-testid={testId}
              />
            );
          case 'text':
          case 'email':
          case 'phone':
            return (
              <TextInput
                label={label}
                description={description}
                required={field.required}
                type={field.kind === 'email' ? 'email' : field.kind === 'phone' ? 'tel' : 'text'}
                maxLength={field.maxLength}
                value={typeof input.value === 'string' ? input.value : ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  input.onChange(field.kind === 'text' && field.uppercase ? value.toUpperCase() : value);
                }}
                onBlur={input.onBlur}
                ref={input.ref}
                error={error}
                data-testid={testId}
              />
            );
        }
      }}
    />
  );
}

/** Add or edit one entry of any list; the inputs come from the catalogue's field descriptors. */
export function ManagedItemForm({
  list,
  item,
  onSubmit,
  onCancel,
}: {
  list: ManagedListDefinition;
  item: ManagedItem | null;
  onSubmit: (values: ItemFormOutput) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('lists');
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<ItemFormValues, unknown, ItemFormOutput>({
    resolver: zodResolver(managedItemInputSchemaFor(list)) as unknown as Resolver<ItemFormValues, unknown, ItemFormOutput>,
    defaultValues: initialValues(list, item),
  });
  const shownFields = [
    'name',
    'sortOrder',
    'isActive',
    ...list.fields.map((field) => `attributes.${field.name}` as const),
  ] as const;

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      await onSubmit(values);
    } catch (failure) {
      if (!applyServerFieldErrors<ItemFormValues>(failure, setFieldError, shownFields)) setError(errorText(failure));
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="managed-item-form">
      <Stack gap="md">
        {error ? <ErrorAlert testId="managed-item-error">{error}</ErrorAlert> : null}
        <TextInput
          label={t('form.name')}
          required
          data-autofocus
          maxLength={200}
          error={translateValidation(errors.name?.message)}
          data-testid="field-name"
          {...register('name')}
        />
        {list.fields.map((field) => (
          <AttributeInput key={field.name} field={field} control={control} errors={errors} />
        ))}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={control}
            name="sortOrder"
            render={({ field: input }) => (
              <NumberInput
                label={t('form.sortOrder')}
                description={t('form.sortOrderHelp')}
                value={input.value}
                onChange={(value) => input.onChange(value === '' ? 0 : value)}
                onBlur={input.onBlur}
                ref={input.ref}
                min={0}
                max={100_000}
                allowDecimal={false}
                error={translateValidation(errors.sortOrder?.message)}
                data-testid="field-sortOrder"
              />
            )}
          />
          <Controller
            control={control}
            name="isActive"
            render={({ field: input }) => (
              <Switch
                mt="lg"
                label={t('form.isActive')}
                description={t('form.isActiveHelp')}
                checked={input.value}
                onChange={(event) => input.onChange(event.currentTarget.checked)}
                onBlur={input.onBlur}
                ref={input.ref}
                data-testid="field-isActive"
              />
            )}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting} data-testid="managed-item-save">
            {t('common:save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
