import { and, eq, inArray } from 'drizzle-orm';
import type { Paperwork } from '@pathwell/contracts/intake';
import type { StaffIntakeDetail } from '@pathwell/contracts/intake-record';
import type { SignedInContext } from '../../context';
import { intakeEntries, patientLinks, patients } from '../../db/schema';
import { patientIntakes } from './patient-intakes.service';
import { changesForLinks } from './intake-record.service';
import { reconciliationsOf } from './intake-reconcile.service';

/**
 * The dashboard card's intakes (issue #24 §4): each with the paperwork's answers against the record and
 * whether its medicines were reconciled; a link the patient's own account closure ended says so.
 */
export async function patientIntakeDetails(ctx: SignedInContext, patientId: string): Promise<StaffIntakeDetail[]> {
  const intakes = await patientIntakes(ctx, patientId);
  const linkIds = intakes.map((intake) => intake.linkId);
  if (linkIds.length === 0) return [];
  const [patient] = await ctx.db
    .select({ accountClosedAt: patients.accountClosedAt })
    .from(patients)
    .where(and(eq(patients.instanceId, ctx.instanceId), eq(patients.id, patientId)));
  const links = await ctx.db
    .select({ id: patientLinks.id, revokedAt: patientLinks.revokedAt })
    .from(patientLinks)
    .where(and(eq(patientLinks.instanceId, ctx.instanceId), inArray(patientLinks.id, linkIds)));
  const finished = await ctx.db
    .select({ linkId: intakeEntries.linkId, data: intakeEntries.data, completedAt: intakeEntries.completedAt })
    .from(intakeEntries)
    .where(
      and(
        eq(intakeEntries.instanceId, ctx.instanceId),
        inArray(intakeEntries.linkId, linkIds),
        eq(intakeEntries.step, 1),
        eq(intakeEntries.formKey, ''),
      ),
    );
  const paperworkOf = (linkId: string) => {
    const entry = finished.find((candidate) => candidate.linkId === linkId && candidate.completedAt);
    return entry ? (entry.data as Paperwork) : null;
  };
  const changesOf = await changesForLinks(ctx.db, ctx.instanceId, patientId, paperworkOf, linkIds);
  const reconciledOf = await reconciliationsOf(ctx.db, ctx.instanceId, linkIds);
  const closedAt = patient?.accountClosedAt?.getTime() ?? null;
  return intakes.map((intake) => {
    const revokedAt = links.find((link) => link.id === intake.linkId)?.revokedAt?.getTime() ?? null;
    // Closing the account revokes the patient's open links at the moment it closes it (close-account.service).
    const byClosure = intake.status === 'revoked' && closedAt !== null && revokedAt === closedAt;
    return {
      ...intake,
      status: byClosure ? 'accountClosed' : intake.status,
      changes: changesOf(intake.linkId),
      reconciled: reconciledOf(intake.linkId),
    };
  });
}
