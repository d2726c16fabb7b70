import { and, eq, isNull } from 'drizzle-orm';
import type { ValidationMessageKey } from '@pathwell/contracts/messages';
import type { Database } from '../../db/client';
import { appointments, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import {
  findLink,
  linkNotFound,
  linkStatusOf,
  requireAccess,
  requireOpen,
  type LinkRow,
} from '../patient-contact/link-access.service';
import { formsWithoutWording } from '../form-responses/wording-availability.service';

/*
 * The patient's intake link as every patient call meets it: found by its token with the plan the clinic
 * can give, past the identity check, readable or open, and the appointment it is for.
 */

export async function findIntakeLink(db: Database, token: string, forUpdate = false): Promise<LinkRow> {
  const link = await findLink(db, token, forUpdate);
  if (link.kind !== 'intake' || !link.intakePlan || !link.appointmentId) throw linkNotFound();
  // A plan made before decision 0061 may hold a form the clinic cannot give: the patient is not asked
  // for it (its neutral labels are not the instrument), so it neither shows nor holds the intake open.
  const unworded = new Set(await formsWithoutWording(db, link.instanceId, link.intakePlan.formCodes));
  if (unworded.size === 0) return link;
  const formCodes = link.intakePlan.formCodes.filter((code) => !unworded.has(code));
  const steps = formCodes.length > 0 ? link.intakePlan.steps : link.intakePlan.steps.filter((step) => step !== 6);
  return { ...link, intakePlan: { ...link.intakePlan, formCodes, steps } };
}

/** A finished intake can be looked at again (read-only); any other closed state ends here. */
export function requireReadable(link: LinkRow) {
  if (linkStatusOf(link) === 'completed') return;
  requireOpen(link);
}

export async function lockOpenIntake(tx: Database, token: string, bearer: string | undefined) {
  const link = await findIntakeLink(tx, token, true);
  requireAccess(link, bearer);
  return link;
}

export async function appointmentOf(db: Database, link: LinkRow) {
  const [row] = await db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      reason: appointments.reason,
      amountDueCents: appointments.amountDueCents,
      status: appointments.status,
      doctorFirstName: users.firstName,
      doctorLastName: users.lastName,
    })
    .from(appointments)
    .leftJoin(users, eq(users.id, appointments.doctorId))
    .where(
      and(eq(appointments.id, link.appointmentId!), eq(appointments.instanceId, link.instanceId), isNull(appointments.deletedAt)),
    );
  // An appointment deleted since the link was sent: the link leads nowhere.
  if (!row) throw linkNotFound();
  return row;
}

export const needsAttention = (fields: Record<string, string>) =>
  new AppError('VALIDATION', 'answersNeedAttention', { fields: fields as Record<string, ValidationMessageKey> });
