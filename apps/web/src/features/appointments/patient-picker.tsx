import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_MIN_CHARS } from '@pathwell/contracts/constants';
import { appointmentQueries, type PatientOption } from './appointments.api';

const mdy = (isoDate: string) =>
  /^\d{4}-\d{2}-\d{2}/.test(isoDate) ? `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}` : isoDate;
const patientLabel = (patient: PatientOption) => `${patient.fullName} (${mdy(patient.birthDate)})`;

/** Finds a patient with the top-bar search (3 letters or more, section 9): full name and birth date. */
export function PatientPicker({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
}) {
  const { t } = useTranslation('appointments');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<PatientOption | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const enabled = debounced.length >= SEARCH_MIN_CHARS && debounced !== (chosen ? patientLabel(chosen) : null);
  const results = useQuery({ ...appointmentQueries.patientSearch(debounced), enabled });
  const found = results.data ?? [];
  const options = [...(chosen && !found.some((patient) => patient.id === chosen.id) ? [chosen] : []), ...found];

  return (
    <Select
      label={t('schedule.patient')}
      placeholder={t('schedule.patientPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable
      filter={({ options: all }) => all}
      data={options.map((patient) => ({ value: patient.id, label: patientLabel(patient) }))}
      searchValue={search}
      onSearchChange={setSearch}
      value={value}
      onChange={(id) => {
        setChosen(options.find((patient) => patient.id === id) ?? null);
        onChange(id);
      }}
      nothingFoundMessage={
        enabled ? (results.isFetching ? t('schedule.searching') : t('schedule.noPatients')) : t('schedule.patientPlaceholder')
      }
      error={error}
      required
      comboboxProps={{ withinPortal: false }}
      data-testid="patient-picker"
    />
  );
}
