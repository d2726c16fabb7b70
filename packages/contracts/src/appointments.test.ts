import { describe, expect, it } from 'vitest';
import { appointmentFilterDefaults, appointmentFilterSchema, createAppointmentSchema } from './appointments';
import { enumerations } from './enumerations';

const id = '6f1c2a4e-1b2c-4d3e-8f90-123456789abc';

describe('appointment contracts', () => {
  it('an empty filter takes the section 9 defaults: today, pain 0–10, page 0 of 15', () => {
    expect(appointmentFilterSchema.parse({})).toEqual({
      dateFilter: 1,
      painScoreMin: 0,
      painScoreMax: 10,
      paginationFilter: { pageSize: 15, pageNumber: 0 },
    });
  });

  it('the defaults the web sends parse to the same filter', () => {
    expect(appointmentFilterSchema.parse(appointmentFilterDefaults)).toEqual(appointmentFilterSchema.parse({}));
  });

  it('every preset value is a published dateFilterPresets value', () => {
    const published = enumerations.dateFilterPresets.map((option) => option.value);
    for (const value of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) expect(published).toContain(value);
    expect(enumerations.dateFilterPresets.find((option) => option.value === 10)?.label.es).toBe('Mañana');
  });

  it('a pain score outside 0–10 is refused with numberOutOfRange', () => {
    const result = createAppointmentSchema.safeParse({
      patientId: id,
      doctorId: id,
      startsAt: '2030-01-01T10:00:00Z',
      painScore: 11,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['painScore'], message: 'numberOutOfRange' });
  });

  it('empty optional fields become null and the duration defaults to 30 minutes', () => {
    expect(
      createAppointmentSchema.parse({
        patientId: id,
        doctorId: id,
        startsAt: '2030-01-01T10:00:00Z',
        roomId: '',
        painScore: '',
        notes: ' ',
      }),
    ).toMatchObject({ roomId: null, painScore: null, notes: null, durationMinutes: 30, bodyLocationIds: [] });
  });
});
