import { eq, sql } from 'drizzle-orm';
import type { OptionalMessages } from '@pathwell/contracts/patients';
import type { SignedInContext } from '../../context';
import { patients } from '../../db/schema';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findVisiblePatient } from './patient-visibility.service';

const yesNo = (value: boolean) => (value ? 'agreed' : 'declined');

/**
 * Staff record the patient's choice of optional messages (decision 0065) when the patient tells the clinic
 * rather than answering on their intake link: the same `outreachEmail` / `outreachText` the opt-in page
 * sets. Who recorded it and when is the activity-log entry; care messages are not touched. A patient the
 * actor may not see (another clinic, another Doctor's patient) is not found.
 */
export async function recordOptionalMessages(
  ctx: SignedInContext,
  patientId: string,
  choice: OptionalMessages,
): Promise<OptionalMessages> {
  return ctx.db.transaction(async (tx) => {
    const before = await findVisiblePatient(ctx, tx, patientId);
    const [row] = await tx
      .update(patients)
      .set({ outreachEmail: choice.email, outreachText: choice.text, updatedAt: sql`now()` })
      .where(eq(patients.id, patientId))
      .returning({ email: patients.outreachEmail, text: patients.outreachText });
    await recordActivity(
      tx,
      staffActivity(ctx, 'Patient Profile', 'Updated', {
        type: 'patient',
        id: patientId,
        description:
          `Recorded the patient's choice of optional messages: email ${yesNo(choice.email)} (was ${yesNo(before.outreachEmail)}), ` +
          `text ${yesNo(choice.text)} (was ${yesNo(before.outreachText)})`,
      }),
    );
    return row!;
  });
}
