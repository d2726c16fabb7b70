import { Select } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLINIC_SWITCH_RELOAD_MS } from '@pathwell/contracts/constants';
import { sessionQueries } from '../../features/session/session.api';
import { getDoctorId, setDoctorId } from '../../lib/session-storage';

/** Narrows the clinic's lists to one doctor; a change reloads the page after 500 ms (section 4). */
export function DoctorSelector({ width = 220 }: { width?: number | string }) {
  const { t } = useTranslation('shell');
  const providers = useQuery(sessionQueries.providers());
  const [value, setValue] = useState(getDoctorId);
  const data = (providers.data ?? []).map((doctor) => ({
    value: doctor.id,
    label: `${doctor.firstName} ${doctor.lastName}`.trim(),
  }));

  return (
    <Select
      data={data}
      value={value}
      onChange={(next) => {
        if (next === value) return;
        setValue(next);
        setDoctorId(next);
        window.setTimeout(() => window.location.reload(), CLINIC_SWITCH_RELOAD_MS);
      }}
      clearable
      placeholder={t('doctorSelector.placeholder')}
      aria-label={t('doctorSelector.label')}
      leftSection={<IconStethoscope size={16} aria-hidden />}
      w={width}
      nothingFoundMessage={t('doctorSelector.none')}
      comboboxProps={{ withinPortal: true, zIndex: 400 }}
      data-testid="doctor-selector"
    />
  );
}
