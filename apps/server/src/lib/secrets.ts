import { hash, verify } from '@node-rs/argon2';
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** OWASP's argon2id minimum: 19 MiB, two passes, one lane. */
// algorithm 2 is Argon2id in @node-rs/argon2 (an ambient const enum, not importable as a value here).
const argonOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, argonOptions);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check so that response times do not reveal which accounts exist.
    await hash(password, argonOptions);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** 256-bit random token, URL safe. */
export const newToken = () => randomBytes(32).toString('base64url');
export const newSixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
