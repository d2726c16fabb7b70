import { describe, expect, it } from 'vitest';
import { decryptFile, decryptSetting, encryptFile, encryptSetting } from './settings-crypto';

const secret = 'a-test-app-secret-of-at-least-32-chars';
const clinic = '0b8f3c3e-6d1a-4c61-9a55-3f1f0c1e2d3a';

describe('secrets at rest', () => {
  it('encrypts with a fresh nonce each time and decrypts back', () => {
    const first = encryptSetting(secret, clinic, 'modMedPassword', 'hunter2!');
    const second = encryptSetting(secret, clinic, 'modMedPassword', 'hunter2!');
    expect(first).toMatch(/^enc:v1:[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(decryptSetting(secret, clinic, 'modMedPassword', first)).toBe('hunter2!');
  });

  it('refuses an altered value, another key, another APP_SECRET and plain text', () => {
    const stored = encryptSetting(secret, clinic, 'modMedPassword', 'hunter2!');
    const body = Buffer.from(stored.slice('enc:v1:'.length), 'base64url');
    body[body.length - 1]! ^= 1;
    expect(() => decryptSetting(secret, clinic, 'modMedPassword', `enc:v1:${body.toString('base64url')}`)).toThrow();
    expect(() => decryptSetting(secret, clinic, 'greenwayPassword', stored)).toThrow();
    expect(() => decryptSetting('another-app-secret-of-at-least-32-chars', clinic, 'modMedPassword', stored)).toThrow();
    expect(() => decryptSetting(secret, clinic, 'modMedPassword', 'hunter2!')).toThrow();
  });

  it('encrypts files the same way', () => {
    const content = Buffer.from('-----BEGIN PRIVATE KEY-----\n…');
    const stored = encryptFile(secret, clinic, 'eClinicalWorksBulkPrivateKey', content);
    expect(stored.includes(content)).toBe(false);
    expect(decryptFile(secret, clinic, 'eClinicalWorksBulkPrivateKey', stored).equals(content)).toBe(true);
  });
});
