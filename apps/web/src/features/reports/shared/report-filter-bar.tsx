import { Button, Group, Paper } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/**
 * The filter form above a report: its fields in one wrapping row, then the apply button. One piece for
 * every report page, so the reports look and behave the same (fields stay whatever each report needs).
 */
export function ReportFilterBar({
  label,
  applyLabel,
  applyTestId,
  onSubmit,
  children,
}: {
  /** The form's accessible name ("Report filters"). */
  label: string;
  applyLabel: string;
  applyTestId: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p="md" mb="lg" component="form" onSubmit={onSubmit} aria-label={label} noValidate>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {children}
        <Button type="submit" data-testid={applyTestId}>
          {applyLabel}
        </Button>
      </Group>
    </Paper>
  );
}
