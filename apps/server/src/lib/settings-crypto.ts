import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM under a key derived from APP_SECRET with HKDF-SHA256. Each value is
 * bound (as associated data) to its clinic and key, so a ciphertext copied to another row does not
 * decrypt. The version prefix lets a later key or algorithm live beside this one.
 *
 * One scheme for every secret the server keeps: clinic settings and files, outbox bodies and
 * attachments, encounter imports, inbound texts (decision 0069). The HKDF label keeps its first name
 * (`instance-settings-secrets-v1`): changing it would leave every stored value unreadable.
 */
const TEXT_PREFIX = 'enc:v1:';
const FILE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Buffer>();
function keyFor(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', appSecret, 'pathwell', 'instance-settings-secrets-v1', 32));
    keys.set(appSecret, key);
  }
  return key;
}

const associatedData = (instanceId: string, key: string) => Buffer.from(`${instanceId}:${key}`, 'utf8');

function seal(appSecret: string, plain: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(appSecret), iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(appSecret: string, sealed: Buffer, aad: Buffer): Buffer {
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret), iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

export const isEncryptedText = (stored: string) => stored.startsWith(TEXT_PREFIX);

export function encryptSetting(appSecret: string, instanceId: string, key: string, plain: string): string {
  return TEXT_PREFIX + seal(appSecret, Buffer.from(plain, 'utf8'), associatedData(instanceId, key)).toString('base64url');
}

/** Throws when the value was not encrypted by this scheme, was altered, or belongs to another row. */
export function decryptSetting(appSecret: string, instanceId: string, key: string, stored: string): string {
  if (!isEncryptedText(stored)) throw new Error(`Setting ${key} is not encrypted`);
  const sealed = Buffer.from(stored.slice(TEXT_PREFIX.length), 'base64url');
  return open(appSecret, sealed, associatedData(instanceId, key)).toString('utf8');
}

export function encryptFile(appSecret: string, instanceId: string, key: string, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([FILE_VERSION]), seal(appSecret, content, associatedData(instanceId, key))]);
}

export function decryptFile(appSecret: string, instanceId: string, key: string, stored: Buffer): Buffer {
  if (stored[0] !== FILE_VERSION) throw new Error(`File ${key} is not encrypted`);
  return open(appSecret, stored.subarray(1), associatedData(instanceId, key));
}
