import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The one way a form or page shows a failure message: red, announced to screen readers. */
export function ErrorAlert({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid={testId}>
      {children}
    </Alert>
  );
}
