import { Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** Title block of a page inside the shell; the browser tab keeps the clinic name (section 7). */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    const heading = document.getElementById('page-title');
    heading?.focus({ preventScroll: true });
  }, []);
  return (
    <Stack gap={4} mb="lg">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <Title order={1} size="h2" id="page-title" tabIndex={-1}>
          {title}
        </Title>
        {actions}
      </div>
      {description ? <Text c="dimmed">{description}</Text> : null}
    </Stack>
  );
}
