import { and, asc, eq, inArray, isNull, isNotNull } from 'drizzle-orm';
import { AppointmentStatus } from '@pathwell/contracts/enums';
import { findManagedList } from '@pathwell/contracts/managed-lists';
import { RoleCode } from '@pathwell/contracts/roles';
import type { Database } from '../client';
import {
  appointments,
  interventions,
  managedItems,
  patients,
  patientStudyGroups,
  plannedProcedures,
  users,
  visitRecords,
} from '../schema';

/** Names other demo seeds look up (pathway triggers, pain journal around the procedure). */
export const DEMO_LUMBAR_TFESI = 'Lumbar transforaminal epidural steroid injection';
export const DEMO_SCS_TRIAL = 'Spinal cord stimulator trial';
export const DEMO_SCS_IMPLANT = 'Spinal cord stimulator implant';

/**
 * The clinic's own catalogue: names are what a clinic would call its services; the CPT codes are the
 * published AMA CPT codes clinics bill them under (stored as codes, with no descriptions of ours).
 */
const lists: Record<string, { name: string; attributes?: Record<string, unknown> }[]> = {
  'interventionalitems:1': [
    { name: 'Lumbar medial branch block', attributes: { cptCode: '64493' } },
    { name: 'Lumbar radiofrequency ablation', attributes: { cptCode: '64635' } },
    { name: DEMO_SCS_TRIAL, attributes: { cptCode: '63650' } },
    { name: DEMO_SCS_IMPLANT, attributes: { cptCode: '63685' } },
    { name: 'Intrathecal pump implant', attributes: { cptCode: '62362' } },
  ],
  'interventionalitems:2': [
    { name: DEMO_LUMBAR_TFESI, attributes: { cptCode: '64483' } },
    { name: 'Lumbar interlaminar epidural steroid injection', attributes: { cptCode: '62323' } },
    { name: 'Cervical interlaminar epidural steroid injection', attributes: { cptCode: '62321' } },
    { name: 'Sacroiliac joint injection', attributes: { cptCode: '27096' } },
    { name: 'Trigger point injection', attributes: { cptCode: '20552' } },
  ],
  'interventionalitems:3': [
    { name: 'Lumbar spine' },
    { name: 'Cervical spine' },
    { name: 'Thoracic spine' },
    { name: 'Sacroiliac joint' },
    { name: 'Knee' },
  ],
  // spinalLocations: 1 Cervical, 2 Thoracic, 3 Lumbar, 4 Occipital, 5 SI Joint.
  interventionallocations: [
    { name: 'Lumbar', attributes: { spinalRegion: 3 } },
    { name: 'Cervical', attributes: { spinalRegion: 1 } },
    { name: 'Thoracic', attributes: { spinalRegion: 2 } },
    { name: 'SI joint', attributes: { spinalRegion: 5 } },
  ],
  adainterventionallocations: [
    { name: 'Office procedure room', attributes: { code: 'OFFICE' } },
    { name: 'Riverside Ambulatory Surgery Center', attributes: { code: 'ASC' } },
  ],
  painpumpmedicines: [
    { name: 'Morphine, preservative-free', attributes: { concentration: 25, unit: 'mg/mL' } },
    { name: 'Hydromorphone', attributes: { concentration: 10, unit: 'mg/mL' } },
    { name: 'Baclofen', attributes: { concentration: 2000, unit: 'mcg/mL' } },
    { name: 'Bupivacaine', attributes: { concentration: 20, unit: 'mg/mL' } },
  ],
  studygroups: [
    {
      name: 'Lumbar ESI outcomes 2026',
      attributes: { description: 'Patients followed after lumbar epidural steroid injections' },
    },
    { name: 'SCS candidates', attributes: { description: 'Patients being evaluated for spinal cord stimulation' } },
    { name: 'Opioid taper program' },
  ],
};

async function addLists(tx: Database, instanceId: string) {
  const rows = Object.entries(lists).flatMap(([listType, entries]) => {
    const list = findManagedList(listType);
    if (!list) throw new Error(`Unknown list ${listType}`);
    return entries.map((entry, index) => ({
      instanceId,
      listType,
      name: entry.name,
      attributes: list.attributes.parse(entry.attributes ?? {}) as Record<string, unknown>,
      sortOrder: (index + 1) * 10,
    }));
  });
  await tx.insert(managedItems).values(rows).onConflictDoNothing();
  const stored = await tx
    .select({ id: managedItems.id, name: managedItems.name, listType: managedItems.listType })
    .from(managedItems)
    .where(
      and(
        eq(managedItems.instanceId, instanceId),
        inArray(managedItems.listType, Object.keys(lists)),
        isNull(managedItems.deletedAt),
      ),
    );
  return (listType: string, name: string) => stored.find((row) => row.listType === listType && row.name === name)?.id ?? null;
}

/**
 * Interventional care in a demo clinic (issue #13, decision 0038): the catalogue, and for four of the
 * doctor's patients a lumbar transforaminal injection half-way through their visits, after which their
 * visit pain eases (demo numbers, so the dashboard chart and the reports have something to show), a
 * visit record with codes on the procedure visit, a cohort, and one planned stimulator trial waiting for
 * its compliance checklist.
 */
export async function seedDemoCare(tx: Database, options: { instanceId: string }) {
  const { instanceId } = options;
  const idOf = await addLists(tx, instanceId);
  const [doctor] = await tx
    .select({ id: users.id, providerType: users.clinicalProviderType })
    .from(users)
    .where(and(eq(users.instanceId, instanceId), eq(users.role, RoleCode.Doctor), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt))
    .limit(1);
  if (!doctor) return;
  const candidates = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(
      and(
        eq(patients.instanceId, instanceId),
        eq(patients.doctorId, doctor.id),
        isNull(patients.deletedAt),
        isNull(patients.archivedAt),
      ),
    )
    .orderBy(asc(patients.createdAt), asc(patients.id))
    .limit(40);
  const injection = idOf('interventionalitems:2', DEMO_LUMBAR_TFESI)!;
  const cohort = idOf('studygroups', 'Lumbar ESI outcomes 2026')!;
  let seeded = 0;
  for (const candidate of candidates) {
    if (seeded === 4) break;
    const visits = await tx
      .select({ id: appointments.id, startsAt: appointments.startsAt, painScore: appointments.painScore })
      .from(appointments)
      .where(
        and(
          eq(appointments.instanceId, instanceId),
          eq(appointments.patientId, candidate.id),
          eq(appointments.status, AppointmentStatus.Completed),
          isNull(appointments.deletedAt),
          isNotNull(appointments.painScore),
        ),
      )
      .orderBy(asc(appointments.startsAt));
    if (visits.length < 3) continue;
    const procedureVisit = visits[Math.floor(visits.length / 2) - 1]!;
    const baseline = Math.max(procedureVisit.painScore ?? 7, 6);
    const after = visits.slice(visits.indexOf(procedureVisit) + 1);
    for (const [index, visit] of after.entries()) {
      await tx
        .update(appointments)
        .set({ painScore: Math.max(1, baseline - 2 - index) })
        .where(eq(appointments.id, visit.id));
    }
    await tx.update(appointments).set({ painScore: baseline }).where(eq(appointments.id, procedureVisit.id));
    const performedOn = procedureVisit.startsAt.toISOString().slice(0, 10);
    await tx.insert(interventions).values({
      instanceId,
      patientId: candidate.id,
      appointmentId: procedureVisit.id,
      kind: 'injection',
      itemId: injection,
      bodyPartId: idOf('interventionalitems:3', 'Lumbar spine'),
      directionId: null,
      locationId: idOf('interventionallocations', 'Lumbar'),
      adaLocationId: idOf('adainterventionallocations', 'Office procedure room'),
      side: seeded % 2 === 0 ? 'left' : 'right',
      levels: ['L4-L5', 'L5-S1'],
      medicines: [],
      guidance: 'fluoroscopy',
      performedOn,
      providerId: doctor.id,
      providerType: doctor.providerType ?? 'Doctor',
      completion: 1,
      outcome: 'Tolerated well; no immediate complications recorded.',
      followUpPlan: 'Follow-up visit in 2 weeks.',
      createdBy: doctor.id,
    });
    await tx.insert(visitRecords).values({
      instanceId,
      patientId: candidate.id,
      appointmentId: procedureVisit.id,
      // visitActions: 4 Interventional, 9 Administered Injection.
      actionsTaken: [4, 9],
      diagnosisCodes: ['M54.16'],
      procedureCodes: ['64483', '64484'],
      note: 'Demo visit note: injection performed as planned.',
      recordedBy: doctor.id,
    });
    await tx
      .insert(patientStudyGroups)
      .values({ instanceId, patientId: candidate.id, studyGroupId: cohort, assignedBy: doctor.id });
    seeded += 1;
  }
  const trialCandidate = candidates.at(-1);
  const trial = idOf('interventionalitems:1', DEMO_SCS_TRIAL);
  if (trialCandidate && trial) {
    await tx.insert(plannedProcedures).values({
      instanceId,
      patientId: trialCandidate.id,
      itemId: trial,
      status: 'authorisationRequested',
      compliance: {
        conservativeCareWeeks: 12,
        physicalTherapyCompleted: true,
        imagingCompleted: true,
        psychEvaluationCompleted: false,
        notes: 'Psychological evaluation booked.',
      },
      createdBy: doctor.id,
    });
    await tx
      .insert(patientStudyGroups)
      .values({
        instanceId,
        patientId: trialCandidate.id,
        studyGroupId: idOf('studygroups', 'SCS candidates')!,
        assignedBy: doctor.id,
      })
      .onConflictDoNothing();
  }
}
