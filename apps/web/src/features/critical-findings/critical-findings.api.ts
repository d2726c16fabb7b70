import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CriticalFinding } from '@pathwell/contracts/critical-findings';
import type { FormResponseDetail } from '@pathwell/contracts/patient-links';
import { api } from '../../lib/api-client';
import { appointmentDashboardKeys } from '../intake/appointment-dashboard.api';
import { notificationKeys } from '../notifications/notifications.api';
import { questionnaireKeys } from '../questionnaires/questionnaires.api';

/**
 * Acknowledge a critical finding (decision 0058). The response page takes the answer as it is (reading
 * the response again would log another view); the lists that show the flag and the bells read again.
 */
export function useAcknowledgeFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<CriticalFinding>(`/api/criticalfindings/${encodeURIComponent(id)}/acknowledge`, {}),
    onSuccess: (finding) => {
      queryClient.setQueryData<FormResponseDetail>(questionnaireKeys.response(finding.responseId), (response) =>
        response
          ? {
              ...response,
              criticalFindings: response.criticalFindings.map((entry) => (entry.id === finding.id ? finding : entry)),
            }
          : response,
      );
      void queryClient.invalidateQueries({ queryKey: questionnaireKeys.patientResponses(finding.patientId) });
      void queryClient.invalidateQueries({ queryKey: appointmentDashboardKeys.all });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
