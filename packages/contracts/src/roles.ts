import { z } from 'zod';

/**
 * Stored role codes. Admin 1, Staff 2 and Doctor 3 come from the specification; System Manager is
 * not numbered there and is given 4 (docs/decisions/0002-roles-and-tenancy.md).
 */
export const RoleCode = { Admin: 1, Staff: 2, Doctor: 3, SystemManager: 4 } as const;

export const roleNames = ['SystemManager', 'Admin', 'Doctor', 'Staff'] as const;
export const roleSchema = z.enum(roleNames);
export type Role = z.infer<typeof roleSchema>;

export function roleFromCode(code: number): Role {
  const entry = Object.entries(RoleCode).find(([, value]) => value === code);
  if (!entry) throw new Error(`Unknown role code ${code}`);
  return entry[0] as Role;
}

/** Privilege order used when one user assigns a role to another: nobody grants above their own. */
export const roleRank: Record<Role, number> = { SystemManager: 4, Admin: 3, Doctor: 2, Staff: 1 };
