/** Enumerations of specification section 3 needed by the foundation. */
export const activityActions = ['Created', 'Updated', 'Deleted', 'Viewed', 'Sent', 'Failed'] as const;
export type ActivityAction = (typeof activityActions)[number];

export const activityAreas = [
  'Admin Configuration',
  'Patient Profile',
  'Appointment Schedules',
  'Checkins',
  'Interventions',
  'System Users',
  'Patient List',
  'Patient Dashboard',
  'Patient Sign-In',
  'Intake Information',
  'Form Submission',
  'Appointments',
  'Patient Study Group',
  'Login Activity',
] as const;
export type ActivityArea = (typeof activityAreas)[number];

export const AppointmentStatus = { Checking_In: 1, Upcoming: 2, Completed: 3, No_Show: 4 } as const;
