import { Loader, Paper, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useClickOutside, useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SEARCH_CLOSE_DELAY_MS, SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '@pathwell/contracts/constants';
import { isoToMdy } from '@pathwell/contracts/patients';
import { patientQueries } from '../../features/patients/patients.api';
import { getDoctorId } from '../../lib/session-storage';

/**
 * Top-bar patient search (section 2 Layout, 5, 9). Nothing happens below three characters; from three
 * on, `GET /api/patients/search` runs 250 ms after the last keystroke and lists full name and birth
 * date, each opening the patient dashboard. An outside click closes the results after 0.5 s.
 */
export function PatientSearch({ width = 260 }: { width?: number | string }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const closeTimer = useRef<number | undefined>(undefined);
  const resultsId = useId();
  const term = value.trim();
  const [debounced] = useDebouncedValue(term, SEARCH_DEBOUNCE_MS);
  const searching = term.length >= SEARCH_MIN_CHARS;
  const ready = debounced.length >= SEARCH_MIN_CHARS && debounced === term;

  const results = useQuery({ ...patientQueries.search(debounced, getDoctorId()), enabled: ready });

  const root = useClickOutside<HTMLDivElement>(() => {
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => setOpen(false), SEARCH_CLOSE_DELAY_MS);
  });
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);
  useEffect(() => setActive(-1), [debounced]);

  const showResults = open && searching;
  const rows = ready ? (results.data ?? []) : [];

  const go = (id: string) => {
    setOpen(false);
    setValue('');
    void navigate(`/patients/patientdashboard/${id}`);
  };

  let content;
  if (!ready || results.isPending) {
    content = (
      <Text size="sm" c="dimmed" role="status">
        <Loader size="xs" mr="xs" aria-hidden />
        {t('patients:search.searching')}
      </Text>
    );
  } else if (results.isError) {
    content = (
      <Text size="sm" c="red" role="alert">
        {t('patients:search.failed')}
      </Text>
    );
  } else if (rows.length === 0) {
    content = (
      <Text size="sm" c="dimmed" role="status" data-testid="patient-search-empty">
        {t('search.noMatch')}
      </Text>
    );
  } else {
    content = (
      <ul
        role="listbox"
        aria-label={t('search.results')}
        className="patient-search-list"
        style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 360, overflowY: 'auto' }}
      >
        {rows.map((row, index) => (
          <li key={row.id} role="option" aria-selected={index === active} id={`${resultsId}-${index}`}>
            <UnstyledButton
              onClick={() => go(row.id)}
              w="100%"
              p={6}
              style={{ borderRadius: 6, background: index === active ? 'var(--mantine-color-blue-light)' : undefined }}
              data-testid="patient-search-result"
            >
              <Text size="sm" fw={500} span>
                {row.fullName}
              </Text>{' '}
              <Text size="xs" c="dimmed" span>
                {isoToMdy(row.birthDate)}
              </Text>
            </UnstyledButton>
          </li>
        ))}
      </ul>
    );
  }

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
          if (!showResults || rows.length === 0) return;
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((current) => Math.min(rows.length - 1, current + 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((current) => Math.max(0, current - 1));
          } else if (event.key === 'Enter' && active >= 0) {
            event.preventDefault();
            go(rows[active]!.id);
          }
        }}
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        // The combobox pattern (ARIA 1.2): the typed text filters a popup list, walked with the arrow keys.
        role="combobox"
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-expanded={showResults}
        aria-controls={showResults ? resultsId : undefined}
        aria-activedescendant={showResults && active >= 0 ? `${resultsId}-${active}` : undefined}
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
          {content}
        </Paper>
      ) : null}
    </div>
  );
}
