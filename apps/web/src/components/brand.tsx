import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconHeartbeat } from '@tabler/icons-react';

export function Brand({ size = 'lg' }: { size?: 'md' | 'lg' }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={size === 'lg' ? 36 : 30} radius="md" aria-hidden>
        <IconHeartbeat size={size === 'lg' ? 22 : 18} />
      </ThemeIcon>
      <Text fw={700} size={size === 'lg' ? 'xl' : 'lg'} c="teal.9">
        Pathwell
      </Text>
    </Group>
  );
}
