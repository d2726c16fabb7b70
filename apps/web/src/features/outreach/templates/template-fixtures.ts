import type { AudienceTemplate } from '@pathwell/contracts/outreach';

/** Test data of the template list and builder. */
export const templateId = '55555555-5555-4555-8555-555555555555';
export const groupId = '66666666-6666-4666-8666-666666666666';

export function template(overrides: Partial<AudienceTemplate> = {}): AudienceTemplate {
  return {
    id: templateId,
    kind: 'campaign',
    name: 'Lumbar radiculopathy, not seen in 6 months',
    description: 'Bring back lumbar patients',
    rule: {
      codes: ['M54.16', 'M54.17', 'M51.16', 'M51.17'],
      codeGroupIds: [groupId],
      matchMode: 2,
      codedFrom: null,
      codedTo: null,
      lastVisitBefore: '2026-01-01',
      lastVisitAfter: null,
      noUpcomingAppointment: true,
      ageMin: null,
      ageMax: null,
      providerIds: [],
      payorStatusIds: [],
      studyGroupIds: [],
      excludeContactedWithinDays: null,
    },
    updatedAt: '2026-03-03T15:00:00.000Z',
    createdByName: 'Alex Carter',
    ...overrides,
  };
}
