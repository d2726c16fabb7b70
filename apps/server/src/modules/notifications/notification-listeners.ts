import { onFact } from '../../lib/domain-events';
import { notifyIfAppointmentFormsComplete } from './notifications.service';

/** Staff hear when a patient's forms for a visit are all in, whichever link (questionnaire or intake) finished last. */
export function listenForCompletedLinks(): void {
  onFact('patientLinkCompleted', 'notifications: forms complete', async (ctx, tx, fact) => {
    await notifyIfAppointmentFormsComplete(ctx, tx, fact);
  });
}
