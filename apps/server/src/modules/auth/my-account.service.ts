import { and, eq, isNull, sql } from 'drizzle-orm';
import { roleFromCode } from '@pathwell/contracts/roles';
import type { UpdateMyAccount, UserProfile } from '@pathwell/contracts/users';
import type { SignedInContext } from '../../context';
import { userInstances, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { reencodeImageDataUrl } from '../../lib/image-type';
import { verifyPassword } from '../../lib/secrets';
import { recordActivity, staffActivity } from '../audit/audit.service';
import { findUser, findUserByEmail, type UserRow, recordOwnAccountActivity } from './account-records';

export function toProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    profileImage: user.profileImage,
    role: roleFromCode(user.role),
    isParent: user.isParent,
    isChild: user.isChild,
    twoFactorEnabled: user.twoFactorEnabled,
  };
}

/** Oneself, or a user of the acting clinic for those who manage users; anyone else is not found. */
export async function getUser(ctx: SignedInContext, id: string): Promise<UserProfile> {
  if (id === ctx.actor.userId) {
    const self = await findUser(ctx.db, id);
    if (!self) throw notFound('userNotFound');
    return toProfile(self);
  }
  if (ctx.actor.role === 'Staff') throw notFound('userNotFound');
  const [row] = await ctx.db
    .select({ user: users })
    .from(users)
    .leftJoin(userInstances, and(eq(userInstances.userId, users.id), eq(userInstances.instanceId, ctx.instanceId)))
    .where(
      and(
        eq(users.id, id),
        isNull(users.deletedAt),
        sql`(${users.instanceId} = ${ctx.instanceId} or ${userInstances.instanceId} is not null)`,
      ),
    );
  if (!row) throw notFound('userNotFound');
  return toProfile(row.user);
}

/**
 * The profile picture to store: re-encoded like every uploaded image (decision 0057), so no EXIF or GPS
 * position is kept and a file that only starts like an image is refused (400). The picture already stored
 * is kept as it is, so saving a form again does not re-compress it.
 */
export async function profileImageToStore(image: string | null, stored: string | null): Promise<string | null> {
  if (image === null || image === stored) return image;
  const clean = await reencodeImageDataUrl(image);
  if (!clean) {
    throw new AppError('VALIDATION', 'fileTypesAccepted', {
      params: { types: 'PNG, JPEG, WebP' },
      fields: { profileImage: 'invalid' },
    });
  }
  return clean;
}

export async function updateMyAccount(ctx: SignedInContext, input: UpdateMyAccount): Promise<UserProfile> {
  return ctx.db.transaction(async (tx) => {
    const user = await findUser(tx, ctx.actor.userId);
    if (!user) throw notFound('userNotFound');
    const profileImage = await profileImageToStore(input.profileImage, user.profileImage);
    if (input.email !== user.email.toLowerCase()) {
      if (!input.currentPassword || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new AppError('VALIDATION', 'currentPasswordForEmail', {
          fields: { currentPassword: 'previousPasswordRequired' },
        });
      }
      const taken = await findUserByEmail(tx, input.email);
      if (taken) throw new AppError('CONFLICT', 'emailInUse', { fields: { email: 'emailInvalid' } });
    }
    const [updated] = await tx
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        profileImage,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning();
    await recordOwnAccountActivity(
      tx,
      ctx,
      user,
      {
        area: 'System Users',
        action: 'Updated',
        targetType: 'user',
        targetId: user.id,
        description: 'Updated own account',
      },
      ctx.instanceId,
    );
    return toProfile(updated!);
  });
}

export async function setTwoFactor(ctx: SignedInContext, enabled: boolean): Promise<UserProfile> {
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ twoFactorEnabled: enabled, updatedAt: new Date() })
      .where(eq(users.id, ctx.actor.userId))
      .returning();
    await recordActivity(
      tx,
      staffActivity(ctx, 'Login Activity', 'Updated', {
        type: 'two-factor sign-in',
        id: ctx.actor.userId,
        description: enabled ? 'Two-factor sign-in turned on' : 'Two-factor sign-in turned off',
      }),
    );
    return toProfile(updated!);
  });
}
