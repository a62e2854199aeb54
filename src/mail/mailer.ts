// The one mail interface the service sends through (OTP codes, newsletter keys): a small, general `send`.
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Resolves once the message is accepted for delivery; rejects when it was not. */
  send(message: MailMessage): Promise<void>;
}
