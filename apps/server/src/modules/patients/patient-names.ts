/** How a patient's name is shown in lists and matched by their searches. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

export const fullNameOf = (row: { firstName: string; middleName: string | null; lastName: string }) =>
  [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');
