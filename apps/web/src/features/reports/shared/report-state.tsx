import { Button, Skeleton, Stack, Text, type MantineSpacing } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { QueryLike } from '../../../components/data-table';
import { ErrorAlert } from '../../../components/error-alert';
import { errorText } from '../../../lib/error-text';

/** The dimmed, centred line a report (or its patients) shows when there is nothing to show. */
export function ReportEmpty({ testId, py = 'xl', children }: { testId?: string; py?: MantineSpacing; children: ReactNode }) {
  return (
    <Text c="dimmed" ta="center" py={py} data-testid={testId}>
      {children}
    </Text>
  );
}

/**
 * Loading, failure (with a retry) and emptiness of a report's query, the same on every report: a failed
 * refetch leaves what is shown in place. While loading, skeleton cards of the given heights (or `loader`).
 */
export function ReportState<D>({
  query,
  loadFailed,
  retry,
  loading,
  errorTestId,
  skeletons = [260, 160],
  loader,
  empty,
  children,
}: {
  query: QueryLike<D>;
  /** Said before the server's message ("The report could not be loaded."). */
  loadFailed: string;
  retry: string;
  loading: string;
  errorTestId: string;
  skeletons?: number[];
  loader?: ReactNode;
  empty?: { when: (data: NonNullable<D>) => boolean; text: ReactNode; testId?: string };
  children: (data: NonNullable<D>) => ReactNode;
}) {
  if (query.isError && !query.data)
    return (
      <Stack gap="sm" align="flex-start">
        <ErrorAlert testId={errorTestId}>
          {loadFailed} {errorText(query.error)}
        </ErrorAlert>
        <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void query.refetch()}>
          {retry}
        </Button>
      </Stack>
    );
  if (!query.data)
    return (
      loader ?? (
        <Stack role="status" aria-busy="true" aria-label={loading}>
          {skeletons.map((height, index) => (
            <Skeleton key={index} h={height} radius="lg" />
          ))}
        </Stack>
      )
    );
  const data = query.data as NonNullable<D>;
  if (empty?.when(data)) return <ReportEmpty testId={empty.testId}>{empty.text}</ReportEmpty>;
  return <>{children(data)}</>;
}
