import { Paper, Text, TextInput } from '@mantine/core';
import { useClickOutside } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_CLOSE_DELAY_MS, SEARCH_MIN_CHARS } from '@pathwell/contracts/constants';

/**
 * Top-bar patient search (section 2 Layout). Nothing happens below three characters; from three on,
 * results open under the input. Until the patients module wires `GET /api/patients/search` in here,
 * nothing can match, so the results only hold the no-matching-record message.
 */
export function PatientSearch({ width = 260 }: { width?: number | string }) {
  const { t } = useTranslation('shell');
  const [value, setValue] = useState('');
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<number | undefined>(undefined);
  const resultsId = useId();
  const term = value.trim();
  const searching = term.length >= SEARCH_MIN_CHARS;

  const root = useClickOutside<HTMLDivElement>(() => {
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => setOpen(false), SEARCH_CLOSE_DELAY_MS);
  });
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const showResults = open && searching;

  return (
    <div ref={root} className="patient-search" style={{ width }}>
      <TextInput
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          setOpen(true);
        }}
        onFocus={() => {
          window.clearTimeout(closeTimer.current);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        aria-expanded={showResults}
        aria-controls={showResults ? resultsId : undefined}
        autoComplete="off"
        type="search"
        data-testid="patient-search"
      />
      {showResults ? (
        <Paper
          id={resultsId}
          shadow="md"
          withBorder
          p="sm"
          className="patient-search-results"
          role="region"
          aria-label={t('search.results')}
        >
          <Text size="sm" c="dimmed" role="status">
            {t('search.noMatch')}
          </Text>
        </Paper>
      ) : null}
    </div>
  );
}
