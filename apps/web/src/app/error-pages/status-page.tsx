import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function StatusPage({
  icon,
  code,
  title,
  text,
  actions,
  fullPage = false,
  testId,
}: {
  icon: ReactNode;
  code?: string;
  title: string;
  text: string;
  actions?: ReactNode;
  fullPage?: boolean;
  testId: string;
}) {
  return (
    <Center mih={fullPage ? '100dvh' : '60vh'} p="lg" data-testid={testId}>
      <Stack align="center" gap="md" maw={520} ta="center">
        <ThemeIcon size={72} radius="xl" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        {code ? (
          <Text c="dimmed" fw={600} size="sm" aria-hidden>
            {code}
          </Text>
        ) : null}
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="lg">
          {text}
        </Text>
        {actions}
      </Stack>
    </Center>
  );
}
