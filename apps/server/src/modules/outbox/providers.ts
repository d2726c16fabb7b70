import nodemailer from 'nodemailer';
import twilio from 'twilio';
import type { Config } from '../../config';

/** A file sent with an email (a support request's screenshot). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mailer {
  /** Hands one message to SMTP; resolves with the provider's message id once it accepted it. */
  deliver(message: {
    from?: string;
    to: string;
    subject: string;
    text: string;
    attachments?: MailAttachment[];
  }): Promise<{ providerMessageId: string }>;
  readonly configured: boolean;
}

export function createMailer(smtpUrl: string | undefined, defaultFrom: string): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      deliver: () => Promise.reject(new Error('No SMTP server is configured')),
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    configured: true,
    async deliver(message) {
      const info = await transport.sendMail({
        from: message.from ?? defaultFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        // nodemailer sends each as a MIME part (base64) with its file name and type.
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((file) => ({
                filename: file.filename,
                contentType: file.contentType,
                content: file.content,
              })),
            }
          : {}),
      });
      return { providerMessageId: String(info.messageId) };
    },
  };
}

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  fromNumber: string;
}

export interface SmsSender {
  /** Sends one text; resolves with the provider's message id (Twilio's SID). */
  send(message: { to: string; body: string; statusCallback: string }): Promise<{ providerMessageId: string; status: string }>;
}

/**
 * The SDK's own HTTP client, pointed at another base URL when one is configured (tests run a local
 * server that checks each request against the documented Messages API).
 */
class RedirectingRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super();
  }
  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0]) {
    return super.request<TData>({ ...opts, uri: opts.uri.replace(/^https:\/\/api\.twilio\.com/, this.baseUrl) } as never);
  }
}

/** Twilio through the official package (Messages API: To, From, Body, StatusCallback). */
export function twilioSender(account: TwilioAccount, config: Pick<Config, 'twilioApiBaseUrl'>): SmsSender {
  const client = twilio(account.accountSid, account.authToken, {
    ...(config.twilioApiBaseUrl ? { httpClient: new RedirectingRequestClient(config.twilioApiBaseUrl) } : {}),
  });
  return {
    async send(message) {
      const sent = await client.messages.create({
        to: message.to,
        from: account.fromNumber,
        body: message.body,
        statusCallback: message.statusCallback,
      });
      return { providerMessageId: sent.sid, status: sent.status };
    },
  };
}

/** Twilio's request signature (X-Twilio-Signature), checked with the SDK's own validator. */
export function isTwilioRequest(authToken: string, signature: string | undefined, url: string, params: Record<string, string>) {
  if (!signature) return false;
  return twilio.validateRequest(authToken, signature, url, params);
}
