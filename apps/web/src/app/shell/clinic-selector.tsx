import { Select } from '@mantine/core';
import { IconBuildingHospital } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CLINIC_SWITCH_RELOAD_MS } from '@pathwell/contracts/constants';
import type { SessionContext } from '@pathwell/contracts/session';
import { sessionQueries } from '../../features/session/session.api';
import { ALL_CLINICS, setClinicId } from '../../lib/session-storage';

/** Parent users switch clinic here (section 4): the choice is stored and the page reloads after 500 ms. */
export function ClinicSelector({ session, width = 240 }: { session: SessionContext; width?: number | string }) {
  const { t } = useTranslation('shell');
  const clinics = useQuery(sessionQueries.parentClinics());
  const current = session.allClinics ? ALL_CLINICS : session.instance.id;
  const data = [
    { value: ALL_CLINICS, label: t('clinicSelector.allClinics') },
    ...(clinics.data ?? [{ id: session.instance.id, name: session.instance.name }]).map((clinic) => ({
      value: clinic.id,
      label: clinic.name,
    })),
  ];

  return (
    <Select
      data={data}
      value={current}
      onChange={(value) => {
        if (!value || value === current) return;
        setClinicId(value);
        window.setTimeout(() => window.location.reload(), CLINIC_SWITCH_RELOAD_MS);
      }}
      allowDeselect={false}
      aria-label={t('clinicSelector.label')}
      leftSection={<IconBuildingHospital size={16} aria-hidden />}
      w={width}
      comboboxProps={{ withinPortal: true, zIndex: 400 }}
      data-testid="clinic-selector"
    />
  );
}
