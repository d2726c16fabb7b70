import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconFilter, IconSearch, IconX } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { activityFilterFieldsSchema, type ActivityActor, type ActivityFilterFields } from '@pathwell/contracts/activity';
import { activityActions, activityAreas } from '@pathwell/contracts/enums';
import { translateValidation } from '../../lib/i18n';

type Values = z.input<typeof activityFilterFieldsSchema>;

const emptyValues: Values = { from: '', to: '', userId: null, area: null, action: null, search: '' };

/** The filters a request carries: absent ones are left out rather than sent empty. */
function withoutEmpty(filter: ActivityFilterFields): ActivityFilterFields {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as ActivityFilterFields;
}

/**
 * Date range (clinic days, MM/DD/YYYY), user, area, action and free text; validated with the same
 * contract the server uses. Login details has no area: its page is one area.
 */
export function ActivityFilters({
  actors,
  showArea = true,
  onApply,
}: {
  actors: ActivityActor[];
  showArea?: boolean;
  onApply: (filter: ActivityFilterFields) => void;
}) {
  const { t } = useTranslation('activity');
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, ActivityFilterFields>({
    resolver: zodResolver(activityFilterFieldsSchema),
    defaultValues: emptyValues,
  });

  const apply = handleSubmit((filter) => onApply(withoutEmpty(filter)));
  const clear = () => {
    reset(emptyValues);
    onApply({} as ActivityFilterFields);
  };

  return (
    <Paper withBorder radius="lg" p="md" component="form" onSubmit={apply} aria-label={t('filters.label')} noValidate>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: showArea ? 6 : 5 }} spacing="sm" verticalSpacing="sm">
        <TextInput
          label={t('filters.from')}
          placeholder={t('filters.datePlaceholder')}
          inputMode="numeric"
          maxLength={10}
          error={translateValidation(errors.from?.message)}
          {...register('from')}
        />
        <TextInput
          label={t('filters.to')}
          placeholder={t('filters.datePlaceholder')}
          inputMode="numeric"
          maxLength={10}
          error={translateValidation(errors.to?.message)}
          {...register('to')}
        />
        <Controller
          control={control}
          name="userId"
          render={({ field }) => (
            <Select
              label={t('filters.user')}
              placeholder={t('filters.allUsers')}
              data={actors.map((actor) => ({ value: actor.id, label: actor.name }))}
              value={field.value ?? null}
              onChange={field.onChange}
              onBlur={field.onBlur}
              searchable
              clearable
              error={translateValidation(errors.userId?.message)}
            />
          )}
        />
        {showArea ? (
          <Controller
            control={control}
            name="area"
            render={({ field }) => (
              <Select
                label={t('filters.area')}
                placeholder={t('filters.allAreas')}
                data={activityAreas.map((area) => ({ value: area, label: t(`areas.${area}`) }))}
                value={field.value ?? null}
                onChange={field.onChange}
                onBlur={field.onBlur}
                clearable
              />
            )}
          />
        ) : null}
        <Controller
          control={control}
          name="action"
          render={({ field }) => (
            <Select
              label={t('filters.action')}
              placeholder={t('filters.allActions')}
              data={activityActions.map((action) => ({ value: action, label: t(`actions.${action}`) }))}
              value={field.value ?? null}
              onChange={field.onChange}
              onBlur={field.onBlur}
              clearable
            />
          )}
        />
        <TextInput
          label={t('filters.search')}
          placeholder={t('filters.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          error={translateValidation(errors.search?.message)}
          {...register('search')}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm" gap="xs">
        <Button variant="subtle" color="gray" leftSection={<IconX size={16} aria-hidden />} onClick={clear}>
          {t('filters.clear')}
        </Button>
        <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
          {t('filters.apply')}
        </Button>
      </Group>
    </Paper>
  );
}
