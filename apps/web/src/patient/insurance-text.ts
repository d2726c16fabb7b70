import type { Paperwork } from '@pathwell/contracts/intake';

/** A secondary insurance counts as entered once any of its fields is. */
export const hasSecondaryInsurance = (paperwork: Pick<Paperwork, 'secondaryInsurance'>) =>
  Object.values(paperwork.secondaryInsurance ?? {}).some((value) => typeof value === 'string' && value.trim() !== '');
