import type { SignedInContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { isOn, readSettings } from '../settings/settings.service';

/**
 * Campaigns, code pulls and hot lists exist only in clinics that use them (section 6: "campaigns are
 * hidden when disabled"): the menu hides them, and every outreach route refuses with 403 `featureOff`.
 * A campaign-only clinic uses them whatever `useCodePull` says (decision 0049).
 */
export async function requireOutreach(ctx: SignedInContext): Promise<void> {
  const settings = await readSettings(ctx.db, ctx.instanceId);
  if (!isOn(settings, 'useCodePull') && !isOn(settings, 'campaignOnly')) throw new AppError('FORBIDDEN', 'featureOff');
}

/** Making a campaign or hot list names one clinic: not from a parent user's all-clinics view (section 6). */
export function requireSingleClinic(ctx: SignedInContext): void {
  if (ctx.allClinics) throw new AppError('FORBIDDEN', 'notAllowed');
}
